"use client";

import { Link } from "@/components/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import {
  AUTO_DISMISS_MS,
  AUTO_DISMISS_WITH_ACTIONS_MS,
  clearToasts,
  consumeFlash,
  dismiss,
  getServerToasts,
  getToasts,
  subscribe,
  type Toast,
} from "./toast-store";

const TONE: Record<Toast["tone"], string> = {
  success: "border-green-300 bg-green-50 text-green-900",
  info: "border-slate-300 bg-white text-slate-900",
  error: "border-red-300 bg-red-50 text-red-900",
};

function ToastItem({ toast, onKeyboardDismiss }: { toast: Toast; onKeyboardDismiss: () => void }) {
  const [paused, setPaused] = useState(false);
  const lasting = toast.tone === "error";
  const delay = toast.actions.length > 0 ? AUTO_DISMISS_WITH_ACTIONS_MS : AUTO_DISMISS_MS;
  useEffect(() => {
    if (lasting || paused) return;
    const timer = window.setTimeout(() => dismiss(toast.id), delay);
    return () => window.clearTimeout(timer);
  }, [toast.id, lasting, paused, delay]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    dismiss(toast.id);
    onKeyboardDismiss();
  };

  return (
    <div
      data-testid="toast"
      data-tone={toast.tone}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className={`pointer-events-auto flex items-start gap-3 rounded-lg border p-3 text-sm shadow-lg ${TONE[toast.tone]}`}
    >
      <div className="min-w-0 flex-1">
        <p className="break-words">{toast.message}</p>
        {toast.actions.length > 0 ? (
          <p className="mt-2 flex flex-wrap gap-3">
            {toast.actions.map((action) =>
              action.href.startsWith("/") ? (
                <Link key={action.href} href={action.href} className="font-medium text-brand-700 underline" onClick={() => dismiss(toast.id)}>
                  {action.label}
                </Link>
              ) : (
                <a key={action.href} href={action.href} className="font-medium text-brand-700 underline" target="_blank" rel="noreferrer">
                  {action.label}
                </a>
              ),
            )}
          </p>
        ) : null}
      </div>
      <button
        type="button"
        className="-m-1 rounded p-1 text-current hover:bg-black/5"
        aria-label="Dismiss notification"
        onClick={(event) => {
          dismiss(toast.id);
          // A keyboard press (detail 0) would leave focus on nothing: send it back.
          if (event.detail === 0) onKeyboardDismiss();
        }}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

/**
 * A region's toasts, newest last. On a phone only the newest is drawn: four stacked would cover a
 * third of the screen. The older ones were announced when they came, keep their own timers, and
 * show again at wider widths.
 */
const STACK = "flex flex-col gap-2 max-sm:[&>[data-testid=toast]:not(:last-child)]:hidden";

/**
 * The dashboard's confirmations, mounted once in the dashboard layout. Two live regions that exist
 * before anything is added (so screen readers announce additions): polite for confirmations,
 * assertive for errors. Never takes focus; Alt+T moves focus to the newest toast, Escape there
 * dismisses it, and each toast has a Dismiss button.
 */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribe, getToasts, getServerToasts);
  const pathname = usePathname();
  const region = useRef<HTMLElement>(null);
  /** Where focus was before Alt+T, so dismissing with the keyboard puts the reader back there. */
  const returnTo = useRef<HTMLElement | null>(null);
  const restoreFocus = () => {
    const target = returnTo.current;
    returnTo.current = null;
    if (target?.isConnected) target.focus();
    else document.getElementById("main")?.focus();
  };

  useEffect(() => consumeFlash(), [pathname]);
  // Leaving the dashboard (sign-out) ends its confirmations: none reappears after the next sign-in.
  useEffect(() => () => clearToasts(), []);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (!event.altKey || event.key.toLowerCase() !== "t") return;
      const items = region.current?.querySelectorAll<HTMLElement>("[data-testid=toast]");
      const last = items?.[items.length - 1];
      if (!last) return;
      event.preventDefault();
      if (!region.current?.contains(document.activeElement)) returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      last.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const polite = toasts.filter((t) => t.tone !== "error");
  const assertive = toasts.filter((t) => t.tone === "error");
  return (
    <section
      ref={region}
      aria-label="Notifications (Alt+T)"
      className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col items-stretch gap-2 sm:left-auto sm:w-96"
    >
      <div role="status" aria-live="polite" className={STACK} data-testid="toast-region">
        {polite.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onKeyboardDismiss={restoreFocus} />
        ))}
      </div>
      <div role="alert" aria-live="assertive" className={STACK}>
        {assertive.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onKeyboardDismiss={restoreFocus} />
        ))}
      </div>
    </section>
  );
}

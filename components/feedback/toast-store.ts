/**
 * The dashboard's confirmations: a tiny store the <Toaster> in the dashboard layout
 * renders. Plain module state, no React: the layout (and so the store's one subscriber) survives a
 * router.refresh() and every client-side navigation, so `notify()` before `router.push()` still
 * shows. A toast that must outlive a full page load (a server redirect, window.location) travels in
 * a short-lived "flash" cookie, which the Toaster picks up on its next mount or path change.
 *
 * Own code rather than a library (sonner etc.): ~150 lines, no dependency, and it renders with the
 * dashboard's own classes and live regions.
 */

type ToastTone = "success" | "info" | "error";
/** A next step: a link the toast offers ("Open it", "Test it"). */
export type ToastAction = { label: string; href: string };
export type ToastInput = { message: string; tone?: ToastTone; actions?: readonly ToastAction[] };
export type Toast = { id: string; message: string; tone: ToastTone; actions: readonly ToastAction[] };

const FLASH_COOKIE = "po_flash";
/** Older toasts make room: a confirmation is about the last action, not a log. */
export const MAX_TOASTS = 4;
/**
 * Toasts leave by themselves, later when they offer a next step, never while hovered or focused
 * (Alt+T reaches them); errors stay until dismissed.
 */
export const AUTO_DISMISS_MS = 7_000;
export const AUTO_DISMISS_WITH_ACTIONS_MS = 20_000;

let toasts: readonly Toast[] = [];
const listeners = new Set<() => void>();
let counter = 0;

function emit() {
  for (const listener of listeners) listener();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const getToasts = (): readonly Toast[] => toasts;
const NO_TOASTS: readonly Toast[] = [];
export const getServerToasts = (): readonly Toast[] => NO_TOASTS;

function normalise(input: ToastInput, id?: string): Toast {
  counter += 1;
  return {
    id: id ?? `t${Date.now().toString(36)}${counter}`,
    message: input.message,
    tone: input.tone ?? "success",
    actions: (input.actions ?? []).filter((a) => a.href.startsWith("/") || /^https?:\/\//.test(a.href)),
  };
}

function add(toast: Toast) {
  if (toasts.some((t) => t.id === toast.id)) return;
  toasts = [...toasts, toast].slice(-MAX_TOASTS);
  emit();
}

/** Show a confirmation now (announced through the Toaster's live region). Returns its id. */
export function notify(input: ToastInput): string {
  const toast = normalise(input);
  add(toast);
  return toast.id;
}

export function dismiss(id: string) {
  const next = toasts.filter((t) => t.id !== id);
  if (next.length === toasts.length) return;
  toasts = next;
  emit();
}

/** Test and sign-out hygiene. */
export function clearToasts() {
  toasts = [];
  emit();
}

export function encodeFlash(toast: Toast): string {
  return encodeURIComponent(JSON.stringify(toast));
}

/** The flash cookie's toast, or undefined for anything else (a hand-edited cookie shows nothing). */
export function decodeFlash(value: string | undefined): Toast | undefined {
  if (!value) return undefined;
  try {
    const parsed = JSON.parse(decodeURIComponent(value)) as Partial<Toast>;
    if (typeof parsed.id !== "string" || typeof parsed.message !== "string") return undefined;
    const tone: ToastTone = parsed.tone === "error" || parsed.tone === "info" ? parsed.tone : "success";
    const actions = Array.isArray(parsed.actions)
      ? parsed.actions.filter((a): a is ToastAction => typeof a?.label === "string" && typeof a?.href === "string")
      : [];
    return normalise({ message: parsed.message.slice(0, 500), tone, actions }, parsed.id.slice(0, 40));
  } catch {
    return undefined;
  }
}

function readCookie(): string | undefined {
  if (typeof document === "undefined") return undefined;
  return document.cookie
    .split("; ")
    .find((part) => part.startsWith(`${FLASH_COOKIE}=`))
    ?.slice(FLASH_COOKIE.length + 1);
}

function clearCookie() {
  document.cookie = `${FLASH_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}

/** Called by the Toaster on mount and on every path change: shows a flashed toast once, then forgets the cookie. */
export function consumeFlash() {
  const toast = decodeFlash(readCookie());
  if (readCookie() !== undefined) clearCookie();
  if (toast) add(toast);
}

"use client";

import { useEffect, useRef, useState } from "react";

/** Writes to the clipboard; falls back to a hidden textarea where the Clipboard API is missing (plain http off localhost). */
async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // refused (no permission, document not focused): try the fallback
  }
  const previous = document.activeElement as HTMLElement | null;
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  try {
    area.select();
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
    previous?.focus();
  }
}

const CLEAR_AFTER_MS = 2500;

/**
 * A small icon button that copies `value`. Its accessible name is `label` ("Copy reference"); the
 * outcome ("Copied", or that copying failed) is announced in its own polite live region, and the
 * icon turns into a check mark for a moment.
 */
export function CopyButton({ value, label, className = "" }: { value: string; label: string; className?: string }) {
  const [status, setStatus] = useState<"" | "copied" | "failed">("");
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    const ok = await writeClipboard(value);
    setStatus(ok ? "copied" : "failed");
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setStatus(""), CLEAR_AFTER_MS);
  };

  return (
    <span className={`inline-flex shrink-0 items-center ${className}`}>
      <button
        type="button"
        onClick={copy}
        aria-label={label}
        title={label}
        data-testid="copy-button"
        className={`inline-flex size-6 items-center justify-center rounded text-slate-500 hover:bg-slate-100 hover:text-slate-800 ${status === "copied" ? "text-green-700" : ""}`}
      >
        {status === "copied" ? (
          <svg
            aria-hidden="true"
            viewBox="0 0 16 16"
            className="size-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M3 8.5l3 3 7-7" />
          </svg>
        ) : (
          <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round">
            <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
            <path d="M10.5 3.5v-.5A1.5 1.5 0 009 1.5H4A1.5 1.5 0 002.5 3v5A1.5 1.5 0 004 9.5h.5" />
          </svg>
        )}
      </button>
      <span role="status" className="sr-only" data-testid="copy-status">
        {status === "copied" ? "Copied" : status === "failed" ? "Could not copy; select the text and copy it instead" : ""}
      </span>
    </span>
  );
}

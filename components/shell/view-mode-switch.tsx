"use client";

import { useState, useTransition } from "react";
import { setViewModeAction } from "@/lib/actions/view-mode";
import type { Mode } from "@/lib/providers";

/**
 * The shell's Test/Live switch, a toggle button (Space/Enter). While the view changes it stays
 * focusable but ignores presses (aria-disabled, not disabled, so keyboard focus is not lost), and
 * says so. The action sets the cookie, and Next renders the current page again in the new view.
 */
export function ViewModeSwitch({ mode }: { mode: Mode }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  const testMode = mode === "test";

  async function toggle() {
    if (pending) return;
    // The other view shows other orders and connections: unsaved edits of this one would be lost.
    // Loaded on the press, so pages without a form do not carry the guard (it is already there with one).
    const { confirmLeave } = await import("@/components/forms/use-unsaved-changes");
    if (!(await confirmLeave())) return;
    startTransition(async () => {
      const result = await setViewModeAction({ mode: testMode ? "live" : "test" });
      setError(result.ok ? undefined : (result.message ?? "Could not switch the view. Try again."));
    });
  }

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <button
        type="button"
        aria-pressed={testMode}
        aria-disabled={pending || undefined}
        aria-describedby="view-mode-help"
        onClick={toggle}
        data-testid="view-mode-switch"
        className="inline-flex items-center gap-2 rounded-full py-1 pr-1 text-sm font-medium aria-disabled:cursor-wait aria-disabled:opacity-70 max-md:min-h-11"
      >
        <span
          aria-hidden="true"
          className={`relative inline-flex h-5 w-9 shrink-0 rounded-full border-2 transition ${
            testMode ? "border-amber-700 bg-amber-600" : "border-slate-400 bg-slate-300"
          }`}
        >
          <span className={`absolute top-0.5 h-3 w-3 rounded-full bg-white shadow transition-all ${testMode ? "left-4" : "left-0.5"}`} />
        </span>
        Test mode
      </button>
      <span id="view-mode-help" className="sr-only">
        On: the dashboard shows test connections, invoices and routing. Off: live ones.
      </span>
      <span role="status" aria-live="polite" className="text-xs">
        {pending ? "Switching…" : error ? <span className="text-red-800">{error}</span> : null}
      </span>
    </div>
  );
}

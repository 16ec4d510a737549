"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { checkStatusNowAction } from "@/lib/actions/check-status";

/**
 * "Check status now": one status request for the open attempt, at once; the answer is
 * announced and the page refreshes to show the new status, attempt and schedule. Disabled, with
 * the reason next to it, when no attempt waits for an answer.
 */
export function CheckStatusButton({ invoiceId, disabledReason }: { invoiceId: string; disabledReason?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);

  const run = () =>
    startTransition(async () => {
      setMessage(null);
      const result = await checkStatusNowAction({ id: invoiceId });
      if (result.ok) setMessage({ text: result.data.message, failed: false });
      else setMessage({ text: result.message ?? "The status request could not be made.", failed: true });
      router.refresh();
    });

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className="btn-secondary"
          onClick={run}
          disabled={pending || disabledReason !== undefined}
          aria-busy={pending}
          aria-describedby={disabledReason ? "check-status-reason" : undefined}
        >
          {pending ? "Asking the provider…" : "Check status now"}
        </button>
        {disabledReason ? (
          <p id="check-status-reason" className="text-sm text-slate-600">
            {disabledReason}
          </p>
        ) : null}
      </div>
      <p
        aria-live="polite"
        role={message?.failed ? "alert" : "status"}
        className={message?.failed ? "text-sm text-red-700" : "text-sm text-slate-800"}
        data-testid="check-status-result"
      >
        {message?.text}
      </p>
    </div>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useId, useRef, useState, useTransition } from "react";
import { acceptDisputeAction } from "@/lib/actions/disputes";

/** Accept dispute: asks first, stating the amount and the deadline, then concedes it, once. */
export function AcceptDisputeButton({ disputeId, amountText, deadlineText }: { disputeId: string; amountText: string; deadlineText: string }) {
  const router = useRouter();
  const ids = useId();
  const [pending, startTransition] = useTransition();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const errorRef = useRef<HTMLParagraphElement>(null);
  const run = () =>
    startTransition(async () => {
      setError(undefined);
      const result = await acceptDisputeAction({ disputeId });
      setConfirming(false);
      if (!result.ok) {
        setError(result.message ?? "The dispute was not accepted.");
        requestAnimationFrame(() => errorRef.current?.focus());
        return;
      }
      router.refresh();
    });
  return (
    <div className="space-y-3">
      {confirming ? (
        <div
          role="alertdialog"
          aria-labelledby={`${ids}-title`}
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm"
          onKeyDown={(event) => {
            if (event.key === "Escape" && !pending) {
              event.preventDefault();
              setConfirming(false);
            }
          }}
        >
          <p id={`${ids}-title`} className="font-medium text-red-950" data-testid="accept-confirmation">
            Accept this dispute of {amountText}? The customer keeps the money and the dispute closes as accepted; evidence could otherwise be sent until{" "}
            {deadlineText}. This cannot be undone.
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="button" className="btn-danger" onClick={run} disabled={pending} aria-busy={pending} autoFocus>
              {pending ? "Accepting…" : "Accept dispute now"}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setConfirming(false)} disabled={pending}>
              Keep contesting
            </button>
          </div>
        </div>
      ) : (
        <button type="button" className="btn-secondary text-red-700" onClick={() => setConfirming(true)}>
          Accept dispute
        </button>
      )}
      <p ref={errorRef} tabIndex={-1} role="alert" className="text-sm text-red-700 outline-none" data-testid="accept-error">
        {error}
      </p>
    </div>
  );
}

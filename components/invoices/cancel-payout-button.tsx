"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { cancelPayoutAction } from "@/lib/actions/cancel-payout";
import { formatMoney } from "@/lib/money";

/** Cancel payout for a payout not yet completed: asks first, then says what the provider did. */
export function CancelPayoutButton({ invoiceId, amount, currency, inProgress }: { invoiceId: string; amount: string; currency: string; inProgress: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);

  const run = () =>
    startTransition(async () => {
      const result = await cancelPayoutAction({ id: invoiceId });
      setConfirming(false);
      if (result.ok)
        setMessage({
          text: result.data.status === "partially_canceled" ? "Payout partly canceled: the parts already paid stay paid." : "Payout canceled.",
          failed: false,
        });
      else setMessage({ text: result.message ?? "The payout could not be canceled.", failed: true });
      router.refresh();
      requestAnimationFrame(() => messageRef.current?.focus());
    });

  return (
    <div className="space-y-3">
      {confirming ? (
        <div
          role="alertdialog"
          aria-labelledby="cancel-payout-title"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm"
          onKeyDown={(event) => {
            // Escape keeps the payout, as "Keep it" does.
            if (event.key === "Escape" && !pending) {
              event.preventDefault();
              setConfirming(false);
            }
          }}
        >
          <p id="cancel-payout-title" className="font-medium text-amber-950" data-testid="cancel-payout-confirmation">
            Cancel the payout of {formatMoney(amount, currency)}?{" "}
            {inProgress ? "The provider stops the parts not yet paid; parts already paid stay paid." : "It has not been sent, so nothing will be paid."}
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button type="button" className="btn-danger" onClick={run} disabled={pending} aria-busy={pending} autoFocus>
              {pending ? "Canceling…" : "Cancel payout"}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setConfirming(false)} disabled={pending}>
              Keep it
            </button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          className="btn-secondary text-red-700"
          onClick={() => {
            setMessage(null);
            setConfirming(true);
          }}
        >
          Cancel payout
        </button>
      )}
      <p
        ref={messageRef}
        tabIndex={-1}
        aria-live="polite"
        role={message?.failed ? "alert" : "status"}
        className={`text-sm outline-none ${message?.failed ? "text-red-700" : "text-slate-700"}`}
        data-testid="cancel-payout-result"
      >
        {message?.text}
      </p>
    </div>
  );
}

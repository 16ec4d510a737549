"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition, type KeyboardEvent } from "react";
import { processPayoutAction } from "@/lib/actions/process-payout";
import type { DashboardConnection } from "@/lib/invoices/read/invoice-view";

export type PayoutToSend = {
  id: string;
  amount: string;
  currency: string;
  /** As stored: first six and last four digits. */
  cardNumberMasked: string | null;
  connection: DashboardConnection | null;
  /** A pinned payout goes to its connection only; otherwise a soft failure moves on down the routing order. */
  pinned: boolean;
};

/** What the confirmation says: how much, to which card, through which connection, and what may follow. */
function payoutConfirmationText(payout: PayoutToSend): string {
  const card = payout.cardNumberMasked ? `card ${payout.cardNumberMasked}` : "the card on the invoice";
  const through = payout.connection
    ? `through ${payout.connection.label} (${payout.connection.providerName}, ${payout.connection.mode} mode)`
    : "through the first connection of your routing order";
  const after = payout.pinned
    ? "It is pinned to that connection, so it goes nowhere else."
    : "If that connection fails softly, it moves on to the next one in your routing order.";
  return `Send ${payout.amount} ${payout.currency} to ${card} ${through}? ${after}`;
}

/**
 * "Process payout" for a payout created without auto_process; owners only (the action checks).
 * Nothing is sent on the first press: a confirmation states amount, currency, the masked card and
 * the connection, and takes focus; Confirm sends, Cancel or Escape goes back without sending.
 */
export function ProcessPayoutButton({ payout }: { payout: PayoutToSend }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const opened = useRef(false);

  // Focus follows the decision: onto Confirm when the confirmation opens, back to the button when it closes.
  useEffect(() => {
    if (confirming) {
      opened.current = true;
      confirmRef.current?.focus();
    } else if (opened.current) {
      opened.current = false;
      if (!message) openRef.current?.focus();
    }
  }, [confirming, message]);

  const cancel = () => {
    if (!pending) setConfirming(false);
  };

  const run = () =>
    startTransition(async () => {
      const result = await processPayoutAction({ id: payout.id });
      setConfirming(false);
      if (result.ok)
        setMessage({
          text: `Payout sent: ${result.data.status.replaceAll("_", " ")}${result.data.resolution ? ` (${result.data.resolution})` : ""}.`,
          failed: false,
        });
      else setMessage({ text: result.message ?? "The payout could not be sent.", failed: true });
      router.refresh();
      requestAnimationFrame(() => messageRef.current?.focus());
    });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      cancel();
    }
  };

  return (
    <div className="space-y-3">
      {confirming ? (
        <div
          role="alertdialog"
          aria-labelledby="process-payout-title"
          aria-describedby="process-payout-text"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm"
          onKeyDown={onKeyDown}
          data-testid="process-payout-dialog"
        >
          <p id="process-payout-title" className="font-semibold text-amber-950">
            Confirm the payout
          </p>
          <p id="process-payout-text" className="mt-1 text-amber-950" data-testid="process-payout-confirmation">
            {payoutConfirmationText(payout)} Money leaves as soon as the provider accepts it.
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button ref={confirmRef} type="button" className="btn-primary" onClick={run} disabled={pending} aria-busy={pending}>
              {pending ? "Sending…" : "Confirm payout"}
            </button>
            <button type="button" className="btn-secondary" onClick={cancel} disabled={pending}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <button
          ref={openRef}
          type="button"
          className="btn-primary"
          onClick={() => {
            setMessage(null);
            setConfirming(true);
          }}
        >
          Process payout
        </button>
      )}
      <p
        ref={messageRef}
        tabIndex={-1}
        aria-live="polite"
        role={message?.failed ? "alert" : "status"}
        className={`text-sm outline-none ${message?.failed ? "text-red-700" : "text-slate-700"}`}
        data-testid="process-payout-result"
      >
        {message?.text}
      </p>
    </div>
  );
}

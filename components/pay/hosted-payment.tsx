"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState, useTransition } from "react";
import { payInvoiceAction } from "@/lib/actions/pay-invoice";
import { cardFieldErrors, type CardFormValues } from "@/lib/pay/card-checks";
import type { HostedInvoice } from "@/lib/pay/hosted-invoice";
import type { TestCard } from "@/lib/sandbox/cards";
import { testCardExpiry, formatCardNumberInput } from "./card-input-format";
import { CardForm, type CardFormErrors } from "./card-form";
import { PayResult } from "./pay-result";

/** Test-mode invoices only: the panel and its card table are a chunk of their own, never sent for a live invoice. */
const TestCards = dynamic(() => import("./test-cards").then((m) => m.TestCards));

const EMPTY: CardFormValues = { number: "", expiry: "", cvc: "", holder: "" };
/** How often the page asks whether a payment being confirmed is settled (a read: the provider is not asked). */
const POLL_MS = 4000;
const NO_ERRORS: CardFormErrors = {};

/**
 * The hosted page's one client component: the result (announced), the card form while the
 * invoice may be paid, the test cards on test invoices, and the way back to the merchant.
 */
export function HostedPayment({ initial }: { initial: HostedInvoice }) {
  const [invoice, setInvoice] = useState(initial);
  const [values, setValues] = useState<CardFormValues>(EMPTY);
  const [errors, setErrors] = useState<CardFormErrors>(NO_ERRORS);
  const [alert, setAlert] = useState<string>();
  const [picked, setPicked] = useState<string>();
  const [pending, startTransition] = useTransition();
  const resultRef = useRef<HTMLDivElement>(null);
  const confirming = invoice.outcome.kind === "in_progress";

  // While the payment is being confirmed (scheduled status requests settle it), the page follows
  // the invoice until it is final, so the customer sees the result without reloading.
  useEffect(() => {
    if (!confirming) return;
    let stopped = false;
    const timer = setInterval(async () => {
      try {
        const response = await fetch(`/pay/${encodeURIComponent(invoice.id)}/status`, { cache: "no-store" });
        if (!response.ok || stopped) return;
        const body = (await response.json()) as { invoice: HostedInvoice };
        if (!stopped && body.invoice.outcome.kind !== "in_progress") setInvoice(body.invoice);
      } catch {
        // Offline for a moment: the next tick tries again.
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [confirming, invoice.id]);

  const pay = () => {
    setAlert(undefined);
    setPicked(undefined);
    // The server's checks, as plain functions: the page carries no validation library.
    const refused = cardFieldErrors(values, { takesCvc: invoice.takesCvc });
    if (Object.keys(refused).length) return setErrors(refused);
    setErrors(NO_ERRORS);
    startTransition(async () => {
      const answer = await payInvoiceAction(invoice.id, values);
      if (!answer.ok) {
        setErrors(Object.keys(answer.fieldErrors).length ? (answer.fieldErrors as CardFormErrors) : NO_ERRORS);
        setAlert(answer.message);
        return;
      }
      if (answer.data.kind === "redirect") {
        window.location.assign(answer.data.url);
        return;
      }
      // The card is done with: nothing of it stays in the page once the provider has answered.
      setValues((current) => ({ ...EMPTY, holder: current.holder }));
      setInvoice(answer.data.invoice);
      if (answer.data.refused) setAlert(answer.data.refused);
      resultRef.current?.focus();
    });
  };

  const pick = (card: TestCard) => {
    setValues((current) => ({ number: formatCardNumberInput(card.number), expiry: testCardExpiry(), cvc: "123", holder: current.holder || "Test Cardholder" }));
    setErrors(NO_ERRORS);
    setPicked(`Test card ${card.label} filled in.`);
  };

  return (
    <div className="space-y-5">
      <div ref={resultRef} tabIndex={-1} role="status" aria-live="polite" className="space-y-3 outline-none" data-testid="pay-status">
        <PayResult
          outcome={invoice.outcome}
          amount={invoice.amount}
          currency={invoice.currency}
          merchantName={invoice.merchantName}
          canPay={invoice.canPay}
          invoiceId={invoice.id}
        />
        {alert ? <p className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">{alert}</p> : null}
        {picked ? <p className="sr-only">{picked}</p> : null}
      </div>
      {invoice.canPay ? (
        <CardForm values={values} errors={errors} takesCvc={invoice.takesCvc} pending={pending} onChange={setValues} onSubmit={pay} />
      ) : null}
      {invoice.returnUrl ? (
        <p className="text-center text-sm">
          <a href={invoice.returnUrl} className="font-medium text-brand-700 underline" data-testid="return-link">
            {invoice.canPay ? `Cancel and return to ${invoice.merchantName}` : `Return to ${invoice.merchantName}`}
          </a>
        </p>
      ) : null}
      {invoice.testMode && invoice.canPay ? <TestCards onPick={pick} disabled={pending} /> : null}
    </div>
  );
}

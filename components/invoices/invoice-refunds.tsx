"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { Field, fieldAria, FormAlert } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { refundInvoiceAction } from "@/lib/actions/refunds";
import type { RefundPanel, RefundView } from "@/lib/refunds/read";
import { formatMoment } from "./invoice-client";

const STATUS_LABELS: Readonly<Record<string, string>> = {
  created: "Being sent",
  pending: "Pending at the provider",
  succeeded: "Refunded",
  failed: "Failed",
};

const STATUS_STYLE: Readonly<Record<string, string>> = {
  created: "bg-slate-100 text-sky-900 ring-1 ring-inset ring-sky-200",
  pending: "bg-slate-100 text-sky-900 ring-1 ring-inset ring-sky-200",
  succeeded: "bg-green-100 text-green-800",
  failed: "bg-red-100 text-red-800",
};

function RefundList({ refunds }: { refunds: RefundView[] }) {
  if (refunds.length === 0) return <p className="text-sm text-slate-600">No refunds yet.</p>;
  return (
    <ol className="divide-y divide-slate-200 rounded-md border border-slate-200" data-testid="refund-list">
      {refunds.map((refund) => (
        <li key={refund.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 p-3 text-sm" data-testid="refund-item">
          <span className="font-medium tabular-nums">
            {refund.amount} {refund.currency}
          </span>
          <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[refund.status] ?? ""}`} data-testid="refund-status">
            {STATUS_LABELS[refund.status] ?? refund.status}
          </span>
          <span className="text-slate-600">{formatMoment(refund.createdAt)}</span>
          <span className="font-mono text-xs text-slate-600">{refund.id}</span>
          {refund.reason ? <span className="w-full text-slate-700">Reason: {refund.reason}</span> : null}
          {refund.message ? <span className="w-full text-slate-700">Provider: {refund.message}</span> : null}
        </li>
      ))}
    </ol>
  );
}

const newReference = () => (typeof crypto.randomUUID === "function" ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);

/** The form: amount (the rest, editable) and reason, then a confirmation that states amount, currency and customer. */
function RefundForm({ invoiceId, panel, currency, onDone }: { invoiceId: string; panel: RefundPanel; currency: string; onDone: (text: string) => void }) {
  const router = useRouter();
  const ids = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const [reviewing, setReviewing] = useState(false);
  const form = useZodForm(() => import("@/lib/refunds/form-schema").then((m) => m.refundFormSchema), {
    defaultValues: { invoiceId, referenceId: newReference(), amount: panel.rest, reason: "" },
  });
  // A refusal sends the form back to editing, where its errors sit on their fields.
  const send = async (values: Parameters<typeof refundInvoiceAction>[0]) => {
    const result = await refundInvoiceAction(values);
    if (!result.ok) setReviewing(false);
    return result;
  };
  const { onSubmit, pending, message } = useActionForm(form, send, {
    onSuccess: (refund) => {
      router.refresh();
      const outcome =
        refund.status === "succeeded"
          ? "refunded"
          : refund.status === "failed"
            ? `failed${refund.message ? `: ${refund.message}` : ""}`
            : "sent; the provider will settle it shortly";
      onDone(`Refund of ${refund.amount} ${refund.currency} ${outcome}.`);
    },
  });
  const amountError = form.formState.errors.amount?.message;
  const reasonError = form.formState.errors.reason?.message;
  const amount = form.watch("amount");
  const review = form.handleSubmit(() => setReviewing(true));
  // The confirmation takes focus, so a keyboard user lands on what to decide next.
  useEffect(() => {
    if (reviewing) confirmRef.current?.focus();
  }, [reviewing]);

  return (
    <form onSubmit={reviewing ? onSubmit : review} noValidate className="space-y-3" aria-label="Refund this payment">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${ids}-amount`} label={`Amount (${currency})`} error={amountError} help={`Up to ${panel.rest} ${currency}.`}>
          <input className="input w-40 tabular-nums" inputMode="decimal" autoComplete="off" readOnly={reviewing} {...fieldAria(`${ids}-amount`, amountError, true)} {...form.register("amount")} />
        </Field>
        <Field id={`${ids}-reason`} label="Reason (optional)" error={reasonError}>
          <input className="input w-full" maxLength={500} readOnly={reviewing} {...fieldAria(`${ids}-reason`, reasonError, false)} {...form.register("reason")} />
        </Field>
      </div>
      <FormAlert message={reviewing ? undefined : message} />
      {reviewing ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm" role="group" aria-label="Confirm the refund">
          <p className="font-medium text-amber-950" data-testid="refund-confirmation">
            Refund {amount} {currency} to {panel.customerName ?? "the customer"}? The provider sends the money back; this cannot be undone.
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button ref={confirmRef} type="submit" className="btn-primary" disabled={pending} aria-busy={pending}>
              {pending ? "Refunding…" : "Confirm refund"}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setReviewing(false)} disabled={pending}>
              Change
            </button>
          </div>
        </div>
      ) : (
        <button type="submit" className="btn-primary">
          Review refund
        </button>
      )}
    </form>
  );
}

/** The payment's refunds, and the Refund form where this viewer may refund it now. */
export function InvoiceRefunds({ invoiceId, currency, panel }: { invoiceId: string; currency: string; panel: RefundPanel }) {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState("");
  const [formKey, setFormKey] = useState(0);
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Refunded so far: <span className="font-medium tabular-nums" data-testid="refunded-amount">{panel.refundedAmount} {currency}</span>
        {panel.blocked === null ? <> · still refundable: <span className="tabular-nums">{panel.rest} {currency}</span></> : null}
      </p>
      <RefundList refunds={panel.refunds} />
      <p role="status" aria-live="polite" className="text-sm text-slate-700" data-testid="refund-result">
        {status}
      </p>
      {panel.blocked !== null ? (
        <p className="text-sm text-slate-600" data-testid="refund-blocked">{panel.blocked}</p>
      ) : open ? (
        <RefundForm
          key={formKey}
          invoiceId={invoiceId}
          panel={panel}
          currency={currency}
          onDone={(text) => {
            setStatus(text);
            setOpen(false);
            setFormKey((k) => k + 1);
          }}
        />
      ) : (
        <button type="button" className="btn-primary" onClick={() => { setStatus(""); setOpen(true); }}>
          Refund
        </button>
      )}
    </div>
  );
}

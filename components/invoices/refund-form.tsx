"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { Field, fieldAria, FormAlert } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { refundInvoiceAction } from "@/lib/actions/refunds";
import type { RefundPanel } from "@/lib/refunds/read";
import { formatMoney } from "@/lib/money";

const newReference = () => (typeof crypto.randomUUID === "function" ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);

/** The form: amount (the rest, editable) and reason, then a confirmation that states amount, currency and customer. */
export function RefundForm({
  invoiceId,
  panel,
  currency,
  onDone,
}: {
  invoiceId: string;
  panel: RefundPanel;
  currency: string;
  onDone: (text: string) => void;
}) {
  const router = useRouter();
  const ids = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const [reviewing, setReviewing] = useState(false);
  const form = useZodForm(() => import("@/lib/refunds/form-schema").then((m) => m.refundFormSchemaFor(currency, panel.rest)), {
    defaultValues: { invoiceId, referenceId: newReference(), amount: panel.rest, reason: "" },
  });
  useUnsavedForm(form);
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
      onDone(`Refund of ${formatMoney(refund.amount, refund.currency)} ${outcome}.`);
    },
  });
  const amountError = form.formState.errors.amount?.message;
  const reasonError = form.formState.errors.reason?.message;
  const amount = form.watch("amount");
  const review = form.handleSubmit(() => setReviewing(true));
  // The confirmation takes focus, so a keyboard user lands on what to decide next; back from it
  // (Change, or a refusal), the amount does.
  const reviewed = useRef(false);
  useEffect(() => {
    if (reviewing) {
      reviewed.current = true;
      confirmRef.current?.focus();
    } else if (reviewed.current) {
      form.setFocus("amount");
    }
  }, [reviewing, form]);

  return (
    <form onSubmit={reviewing ? onSubmit : review} noValidate className="space-y-3" aria-label="Refund this payment">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${ids}-amount`} label={`Amount (${currency})`} error={amountError} help={`Up to ${formatMoney(panel.rest, currency)}.`}>
          <input
            className="input w-40 tabular-nums"
            inputMode="decimal"
            autoComplete="off"
            readOnly={reviewing}
            {...fieldAria(`${ids}-amount`, amountError, true)}
            {...form.register("amount")}
          />
        </Field>
        <Field id={`${ids}-reason`} label="Reason (optional)" error={reasonError}>
          <input
            className="input w-full"
            maxLength={500}
            readOnly={reviewing}
            {...fieldAria(`${ids}-reason`, reasonError, false)}
            {...form.register("reason")}
          />
        </Field>
      </div>
      <FormAlert message={reviewing ? undefined : message} />
      {reviewing ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm" role="group" aria-label="Confirm the refund">
          <p className="font-medium text-amber-950" data-testid="refund-confirmation">
            Refund {formatMoney(amount, currency)}
            {panel.customerName ? ` to ${panel.customerName}` : ""}? The provider sends the money back; this cannot be undone.
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

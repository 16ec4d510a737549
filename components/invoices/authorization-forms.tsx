"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, useTransition, type KeyboardEvent } from "react";
import { Field, fieldAria, FormAlert } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { captureInvoiceAction, voidInvoiceAction, type AuthorizationActionResult } from "@/lib/actions/authorizations";
import { formatMoney } from "@/lib/money";
import type { AuthorizationPanel } from "@/lib/processing/authorization-panel";

const newKey = () => (typeof crypto.randomUUID === "function" ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);

const STATUS_WORDS: Readonly<Record<string, string>> = {
  processed: "processed",
  partially_processed: "partially processed",
  capturing: "sent; the provider's answer is awaited",
  voided: "voided",
  voiding: "sent; the provider's answer is awaited",
};

/** Who the money comes from, for a confirmation: the name sent with the invoice, else the customer reference. */
function payer(panel: AuthorizationPanel): string {
  if (panel.customerName) return ` from ${panel.customerName}`;
  if (panel.customerReference) return ` from customer ${panel.customerReference}`;
  return "";
}

function captureOutcome(result: AuthorizationActionResult): string {
  const amount = result.amount ? formatMoney(result.amount, result.currency) : "";
  return `Capture${amount ? ` of ${amount}` : ""} ${STATUS_WORDS[result.status] ?? result.status}.`;
}

/**
 * Capture: the amount (prefilled with all that was authorized; editable only where the provider
 * captures part), then a confirmation naming amount and customer. Escape or Change goes back.
 */
export function CaptureForm({
  invoiceId,
  panel,
  onDone,
  onRefused,
  onCancel,
}: {
  invoiceId: string;
  panel: AuthorizationPanel;
  onDone: (text: string) => void;
  onRefused: (message: string) => void;
  onCancel: () => void;
}) {
  const router = useRouter();
  const ids = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const [reviewing, setReviewing] = useState(false);
  const authorized = panel.authorizedAmount ?? "0";
  const form = useZodForm(() => import("@/lib/invoices/contract/capture-form-schema").then((m) => m.captureFormSchemaFor(panel.currency, authorized)), {
    defaultValues: { invoiceId, requestKey: newKey(), amount: authorized },
  });
  useUnsavedForm(form);
  const send = async (values: Parameters<typeof captureInvoiceAction>[0]) => {
    const result = await captureInvoiceAction(values);
    if (!result.ok) {
      setReviewing(false);
      // Refused as a whole (already captured, voided, lapsed, the provider said no): the page is
      // read again, since the payment may have moved on, and the refusal stays in plain words.
      if (Object.keys(result.fieldErrors).length === 0 && result.message) {
        router.refresh();
        onRefused(result.message);
      }
    }
    return result;
  };
  const { onSubmit, pending, message } = useActionForm(form, send, {
    // The action's revalidatePath brings the page's new status and history back with its answer.
    onSuccess: (result) => onDone(captureOutcome(result)),
  });
  const amountError = form.formState.errors.amount?.message;
  const amount = form.watch("amount");
  const review = form.handleSubmit(() => setReviewing(true));
  const reviewed = useRef(false);
  useEffect(() => {
    if (reviewing) {
      reviewed.current = true;
      confirmRef.current?.focus();
    } else if (reviewed.current) {
      form.setFocus("amount");
    }
  }, [reviewing, form]);
  const onKey = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== "Escape" || pending) return;
    event.preventDefault();
    if (reviewing) setReviewing(false);
    else onCancel();
  };
  const fixed = !panel.partialCapture;
  return (
    <form onSubmit={reviewing ? onSubmit : review} onKeyDown={onKey} noValidate className="space-y-3" aria-label="Capture this payment">
      <Field
        id={`${ids}-amount`}
        label={`Amount to capture (${panel.currency})`}
        error={amountError}
        help={
          fixed
            ? `${panel.providerName ?? "This provider"} captures only the whole authorization, so the amount is fixed.`
            : `Up to ${formatMoney(authorized, panel.currency)}; capturing less releases the rest.`
        }
      >
        <input
          className="input w-40 tabular-nums"
          inputMode="decimal"
          autoComplete="off"
          readOnly={reviewing || fixed}
          aria-readonly={reviewing || fixed ? true : undefined}
          {...fieldAria(`${ids}-amount`, amountError, true)}
          {...form.register("amount")}
        />
      </Field>
      <FormAlert message={reviewing ? undefined : message} />
      {reviewing ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm" role="group" aria-label="Confirm the capture">
          <p className="font-medium text-amber-950" data-testid="capture-confirmation">
            Capture {formatMoney(amount, panel.currency)}
            {payer(panel)}?{" "}
            {amount.trim() === authorized
              ? "The provider takes the money; this cannot be undone."
              : `The provider takes this much and releases the rest of the ${formatMoney(authorized, panel.currency)} held; this cannot be undone.`}
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <button ref={confirmRef} type="submit" className="btn-primary" disabled={pending} aria-busy={pending}>
              {pending ? "Capturing…" : "Confirm capture"}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setReviewing(false)} disabled={pending}>
              Change
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-primary">
            Review capture
          </button>
          <button type="button" className="btn-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      )}
    </form>
  );
}

/** Void: one confirmation naming what is released; Escape or Keep it goes back. */
export function VoidForm({
  invoiceId,
  panel,
  onDone,
  onRefused,
  onCancel,
}: {
  invoiceId: string;
  panel: AuthorizationPanel;
  onDone: (text: string) => void;
  onRefused: (message: string) => void;
  onCancel: () => void;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [requestKey] = useState(newKey);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  const authorized = panel.authorizedAmount ? formatMoney(panel.authorizedAmount, panel.currency) : "the authorized amount";
  const confirm = () =>
    startTransition(async () => {
      const result = await voidInvoiceAction({ invoiceId, requestKey });
      // A void done (or refused because the payment moved on) revalidates the page with its answer.
      if (!result.ok) {
        router.refresh();
        return onRefused(result.message ?? "The void was refused.");
      }
      onDone(`Void ${STATUS_WORDS[result.data.status] ?? result.data.status}: ${authorized} released, nothing taken.`);
    });
  return (
    <div
      role="alertdialog"
      aria-labelledby="void-title"
      aria-describedby="void-body"
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm"
      onKeyDown={(event) => {
        if (event.key === "Escape" && !pending) {
          event.preventDefault();
          onCancel();
        }
      }}
    >
      <p id="void-title" className="font-semibold text-red-900">
        Void this authorization?
      </p>
      <p id="void-body" className="mt-1 text-red-900" data-testid="void-confirmation">
        {authorized} held{payer(panel)} is released and nothing is taken. It cannot be captured afterwards; this cannot be undone.
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        <button ref={confirmRef} type="button" className="btn-danger" disabled={pending} aria-busy={pending} onClick={confirm}>
          {pending ? "Voiding…" : "Confirm void"}
        </button>
        <button type="button" className="btn-secondary" onClick={onCancel} disabled={pending}>
          Keep it
        </button>
      </div>
    </div>
  );
}

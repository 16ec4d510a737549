"use client";

import { useRouter } from "next/navigation";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { updateInvoiceLifetimeAction } from "@/lib/actions/settings";
import { INVOICE_LIFETIME_MINUTES_MAX, INVOICE_LIFETIME_MINUTES_MIN } from "@/lib/merchants/lifetime-bounds";

/**
 * Settings, owners only: how long new invoices stay payable when their request sends no
 * `lifetime`. The same schema checks the field here and in the action; the server's errors land on
 * the field. Support members see the value read-only (`readOnly`), the action refuses them anyway.
 */
export function InvoiceLifetimeForm({ lifetimeMinutes, readOnly = false }: { lifetimeMinutes: number; readOnly?: boolean }) {
  const form = useZodForm(() => import("@/lib/merchants/settings-schema").then((m) => m.invoiceLifetimeSchema), { defaultValues: { lifetimeMinutes } });
  const router = useRouter();
  const error = form.formState.errors.lifetimeMinutes?.message;
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, updateInvoiceLifetimeAction, {
    onSuccess: ({ lifetimeMinutes: saved }) => {
      form.reset({ lifetimeMinutes: saved });
      router.refresh();
      return `Saved: new invoices expire ${saved} minute${saved === 1 ? "" : "s"} after creation.`;
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Invoice lifetime">
      <Field
        id="invoice-lifetime"
        label="Invoice lifetime (minutes)"
        error={error}
        help={`Unpaid invoices expire this long after creation, unless the request sends its own lifetime in seconds. ${INVOICE_LIFETIME_MINUTES_MIN} to ${INVOICE_LIFETIME_MINUTES_MAX} minutes (30 days); applies to new invoices.`}
      >
        <input
          className="input w-40 tabular-nums"
          type="number"
          inputMode="numeric"
          min={INVOICE_LIFETIME_MINUTES_MIN}
          max={INVOICE_LIFETIME_MINUTES_MAX}
          step={1}
          readOnly={readOnly}
          aria-readonly={readOnly || undefined}
          {...fieldAria("invoice-lifetime", error, true)}
          {...form.register("lifetimeMinutes")}
        />
      </Field>
      <FormAlert message={message} />
      {readOnly ? (
        <p className="text-sm text-slate-700">Only an owner can change the invoice lifetime.</p>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save invoice lifetime
          </SubmitButton>
          <p role="status" aria-live="polite" className="text-sm text-slate-700">
            {status}
          </p>
        </div>
      )}
    </form>
  );
}

"use client";

import { Field, fieldAria } from "@/components/forms/field";
import { SettingForm, useSettingForm } from "@/components/forms/setting-form";
import { updateInvoiceLifetimeAction } from "@/lib/actions/settings";
import { INVOICE_LIFETIME_MINUTES_MAX, INVOICE_LIFETIME_MINUTES_MIN } from "@/lib/merchants/lifetime-bounds";

/**
 * Settings, owners only: how long new invoices stay payable when their request sends no
 * `lifetime`. The same schema checks the field here and in the action; the server's errors land on
 * the field. Support members see the value read-only (`readOnly`), the action refuses them anyway.
 */
export function InvoiceLifetimeForm({ lifetimeMinutes, readOnly = false }: { lifetimeMinutes: number; readOnly?: boolean }) {
  const { form, ...submit } = useSettingForm(
    () => import("@/lib/merchants/settings-schema").then((m) => m.invoiceLifetimeSchema),
    { lifetimeMinutes },
    updateInvoiceLifetimeAction,
    ({ lifetimeMinutes: saved }) => ({
      values: { lifetimeMinutes: saved },
      status: `Saved: new invoices expire ${saved} minute${saved === 1 ? "" : "s"} after creation.`,
    }),
  );
  const error = form.formState.errors.lifetimeMinutes?.message;
  return (
    <SettingForm
      label="Invoice lifetime"
      submit={submit}
      saveLabel="Save invoice lifetime"
      readOnlyNote={readOnly ? "Only an owner can change the invoice lifetime." : undefined}
    >
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
    </SettingForm>
  );
}

"use client";

import { Field, fieldAria } from "@/components/forms/field";
import { customerFieldsFor } from "@/lib/composer/customer-fields";
import type { ComposerValues, CustomerPlacementChoice } from "@/lib/composer/form-values";
import { getProvider } from "@/lib/providers";
import { errorAt, fieldId, Section, TextField, type ComposerField, type ComposerForm } from "./fields";

const PLACEMENTS: readonly { value: CustomerPlacementChoice; label: string; paymentOnly?: boolean }[] = [
  { value: "none", label: "No customer (constants and defaults fill in)" },
  { value: "attributes", label: "data.attributes.customer" },
  { value: "data", label: "data.customer (beside attributes)" },
  { value: "gateway_options", label: "data.attributes.gateway_options.customer", paymentOnly: true },
];

/** Spec 2.3 customer fields shown for the provider, and where the object goes (spec 2.1). */
export function CustomerSection({ form, values }: { form: ComposerForm; values: ComposerValues }) {
  const id = fieldId("customer_placement");
  const error = errorAt(form, "customer_placement");
  const fields = customerFieldsFor(values.provider || undefined);
  const providerName = getProvider(values.provider)?.name;
  const description = providerName
    ? `All optional. The fields ${providerName}'s examples show; blank ones are left out and filled from the connection's constants.`
    : "All optional; blank ones are left out and filled from the connection's constants.";
  return (
    <Section title="Customer" description={description}>
      <Field id={id} label="Where the customer goes" error={error} help="The same customer object is accepted in any one of these three places.">
        <select
          className="input"
          value={values.customer_placement}
          {...fieldAria(id, error, true)}
          {...form.register("customer_placement")}
          defaultValue={undefined}
        >
          {PLACEMENTS.filter((p) => !p.paymentOnly || values.direction === "payment").map((placement) => (
            <option key={placement.value} value={placement.value}>
              {placement.label}
            </option>
          ))}
        </select>
      </Field>
      {values.customer_placement === "none" ? null : (
        <div className="grid gap-4 sm:grid-cols-2">
          {fields.map((field) => (
            <TextField key={field.path} form={form} name={`customer.${field.path}` as ComposerField} label={field.label} type={field.input} help={field.help} />
          ))}
        </div>
      )}
    </Section>
  );
}

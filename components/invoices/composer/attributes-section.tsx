"use client";

import { Field, fieldAria } from "@/components/forms/field";
import type { Role } from "@/lib/db/schema";
import type { ComposerConnection } from "@/lib/composer/connections";
import type { ComposerValues } from "@/lib/composer/form-values";
import { newReferenceId } from "@/lib/composer/reference-id";
import { CheckboxField, errorAt, fieldId, Section, TextField, type ComposerForm } from "./fields";
import { canInMode } from "@/lib/identity/permissions";

/** Amount, reference, flow and test mode (spec 2.2). */
export function AttributesSection({
  form,
  values,
  role,
  connection,
  authorizeOffered,
}: {
  form: ComposerForm;
  values: ComposerValues;
  role: Role;
  connection: ComposerConnection | undefined;
  /** A connection the invoice may go to can authorize now and capture later. */
  authorizeOffered: boolean;
}) {
  const regenerate = () => form.setValue("reference_id", newReferenceId(), { shouldDirty: true, shouldValidate: true });
  return (
    <Section title="Amount and reference">
      <TextField
        form={form}
        name="amount"
        label="Amount"
        required
        inputMode="decimal"
        help={`A decimal such as 100 or 100.50${values.currency ? ` in ${values.currency}` : ""}; at most two decimal places.`}
      />
      <CheckboxField
        form={form}
        name="amount_as_string"
        label="Send the amount as a JSON string"
        help={'Off: a JSON number, as in the example invoices. On: exactly the text typed, e.g. "100.50".'}
      />
      <TextField
        form={form}
        name="reference_id"
        label="Reference ID"
        required
        help="Your own unique reference. Sending the same body again with it returns the same invoice; a different body is refused."
        after={
          <button type="button" className="btn-secondary shrink-0" onClick={regenerate}>
            Regenerate
          </button>
        }
      />
      {values.direction === "payment" ? <FlowField form={form} offered={authorizeOffered} chosen={values.flow === "authorize"} /> : null}
      <TestModeSwitch form={form} values={values} role={role} connection={connection} />
    </Section>
  );
}

function FlowField({ form, offered, chosen }: { form: ComposerForm; offered: boolean; chosen: boolean }) {
  const id = fieldId("flow");
  const error = errorAt(form, "flow");
  const help = offered
    ? "Charge takes the money at Pay. Authorize only reserves it: you capture it (all or part) or void it on the invoice's page, before the provider's hold lapses."
    : chosen
      ? "No connection this invoice can go to authorizes now and captures later: choose charge, or another service or connection."
      : "Charge takes the money at Pay. Authorize only is offered when a connection this invoice can go to authorizes now and captures later.";
  return (
    <Field id={id} label="Flow" required error={error} help={help}>
      <select className="input" {...fieldAria(id, error, true)} {...form.register("flow")}>
        <option value="charge">charge</option>
        {offered || chosen ? <option value="authorize">Authorize only (capture later)</option> : null}
      </select>
    </Field>
  );
}

/**
 * Not registered with react-hook-form: a disabled registered input reads as undefined, which
 * would leave test_mode out of the body and make the invoice live.
 */
function TestModeSwitch({
  form,
  values,
  role,
  connection,
}: {
  form: ComposerForm;
  values: ComposerValues;
  role: Role;
  connection: ComposerConnection | undefined;
}) {
  const id = fieldId("test_mode");
  const error = errorAt(form, "test_mode");
  const support = !canInMode(role, "invoices.compose", "live");
  const mismatch = connection && (connection.mode === "test") !== values.test_mode;
  const help = support
    ? "Support members can compose test-mode invoices only, so test mode stays on."
    : "On: a test invoice, routed to a test-mode connection. Off: a live invoice.";
  return (
    <div>
      <div className="flex items-start gap-2">
        <input
          type="checkbox"
          role="switch"
          className="mt-0.5 size-4"
          name="test_mode"
          checked={values.test_mode}
          disabled={support}
          onChange={(event) => form.setValue("test_mode", event.target.checked, { shouldDirty: true, shouldValidate: true })}
          {...fieldAria(id, error, true)}
        />
        <label htmlFor={id} className="text-sm text-slate-800">
          Test mode
        </label>
      </div>
      <p id={`${id}-help`} className="help ml-6">
        {help}
        {mismatch ? ` ${connection.label} is a ${connection.mode}-mode connection, so it will not receive this invoice.` : null}
      </p>
      <p id={`${id}-error`} className="field-error ml-6" aria-live="polite">
        {error}
      </p>
    </div>
  );
}

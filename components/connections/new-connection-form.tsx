"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { ErrorSummary, flattenErrors, focusErrorSummary } from "@/components/forms/error-summary";
import { notify } from "@/components/feedback";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { applyActionErrors, useRadioMarkup, useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { createConnectionAction } from "@/lib/actions/connections";
import { testCredentialsAction } from "@/lib/actions/test-connection";
import { getKind, type ConnectionKind, type KindSpec } from "@/lib/providers";
import { useConnectCancel } from "./connect-cancel";
import { CredentialFields, summaryItems } from "./credential-fields";
import { TestConnectionResult, useTestConnection } from "./test-connection-button";

/**
 * The 'New connection' form of a provider's overview page. The page renders one per kind (hidden
 * until Connect and the kind are chosen); this module loads on the form's first use
 * (NewConnectionFormOnUse): the form, its schema and the provider registry are the page's largest
 * script, and most visits to the page never fill it in.
 */

/** Only kinds whose merchant makes a key pair here (Provider E) show it: loaded for those alone. */
const GenerateKeyPair = dynamic(() => import("./generate-key-pair").then((m) => m.GenerateKeyPair));

const GENERIC_MESSAGE = "Please correct the marked fields.";

/** Single-option selects start chosen, toggles off, multi-selects empty; hidden fields stay unset. */
function initialCredentials(kind: KindSpec): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of kind.fields) {
    if (field.hidden) continue;
    if (field.input === "toggle") values[field.id] = false;
    else if (field.input === "multi_select") values[field.id] = [];
    else if (field.input === "select" && field.options?.length === 1) values[field.id] = field.options[0]!.value;
  }
  return values;
}

export function NewConnectionForm({ providerSlug, kindSlug }: { providerSlug: string; kindSlug: ConnectionKind }) {
  const onCancel = useConnectCancel();
  const radioMarkup = useRadioMarkup();
  const kind = getKind(providerSlug, kindSlug)!;
  const form = useZodForm(() => import("@/lib/connections/schemas").then((m) => m.createConnectionSchema), {
    defaultValues: { provider: providerSlug, kind: kind.kind, label: "", mode: "test", credentials: initialCredentials(kind) },
    // The error summary takes focus instead, and links to each field.
    shouldFocusError: false,
  });
  const summaryId = `new-${kind.kind}-errors`;
  const focusSummary = () => focusErrorSummary(summaryId);
  const anyForm = form as unknown as UseFormReturn<FieldValues, unknown, FieldValues>;
  const router = useRouter();
  const { errors } = form.formState;
  const idPrefix = `new-${kind.kind}`;
  // Tests the values as typed, before saving; refused input lands on its fields like a save's.
  const test = useTestConnection((result) => {
    const message = applyActionErrors(anyForm, result);
    // A field a Test marked is checked again as it is typed in (as after Save), so its mark goes
    // while it is fixed. Otherwise the mark went on the blur of the next press of Test, and the
    // line it took went with it: the button moved up under the pointer and the press was lost.
    for (const name of Object.keys(result.fieldErrors)) anyForm.setValue(name, anyForm.getValues(name), { shouldTouch: true });
    return message;
  });

  useUnsavedForm(form);
  // A passed Test's receipt goes with Save: saved unchanged, the connection starts out tested.
  const receipt = test.report?.kind === "ok" ? test.report.receipt : undefined;
  const { onSubmit, pending, message } = useActionForm(form, (values) => createConnectionAction({ ...values, test_receipt: receipt }), {
    focusSummary,
    onSuccess: ({ id }, values) => {
      notify({
        message: `"${values.label}" saved in ${values.mode === "live" ? "Live" : "Test"} mode.`,
        actions: [{ label: "Set up routing", href: "/routing" }],
      });
      router.push(`/connections/${id}`);
    },
  });
  const items = form.formState.submitCount > 0 ? summaryItems(kind, idPrefix, flattenErrors(errors)) : [];

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4" aria-label={`New ${kind.label}`}>
      {/* The summary already says "correct these"; a message about the whole form still shows. */}
      <FormAlert message={items.length && message === GENERIC_MESSAGE ? undefined : message} />
      <ErrorSummary id={summaryId} items={items} />
      <Field id={`${idPrefix}-label`} label="Label" error={errors.label?.message} help="Your name for this connection, unique among your connections." required>
        <input className="input" {...fieldAria(`${idPrefix}-label`, errors.label?.message, true)} {...form.register("label")} />
      </Field>
      <fieldset aria-describedby={kind.modeField ? `${idPrefix}-mode-help ${idPrefix}-mode-error` : `${idPrefix}-mode-error`}>
        <legend className="label">Mode</legend>
        <div className="mt-1 flex gap-6 text-sm">
          {(["test", "live"] as const).map((mode) => (
            <label key={mode} className="flex items-center gap-2">
              <input type="radio" id={`${idPrefix}-mode-${mode}`} value={mode} {...form.register("mode")} {...radioMarkup(form.getValues("mode") === mode)} />
              {mode === "test" ? "Test (provider sandbox)" : "Live"}
            </label>
          ))}
        </div>
        {kind.modeField ? (
          <p id={`${idPrefix}-mode-help`} className="help">
            The keys must belong to the mode: dev_ keys for Test, prod_ keys for Live.
          </p>
        ) : null}
        <p id={`${idPrefix}-mode-error`} className="field-error" aria-live="polite">
          {errors.mode?.message}
        </p>
      </fieldset>
      {kind.onePerCurrencyAndMode ? <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">{kind.onePerCurrencyAndMode.reason}</p> : null}
      {kind.fields.some((f) => f.id === "generated_key_id") ? <GenerateKeyPair form={anyForm} providerSlug={providerSlug} /> : null}
      <CredentialFields form={anyForm} kind={kind} idPrefix={idPrefix} />
      <div className="flex gap-3">
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save connection
        </SubmitButton>
        <button type="button" className="btn-secondary" disabled={test.pending} onClick={() => test.run(() => testCredentialsAction(form.getValues()))}>
          {test.pending ? "Testing…" : "Test connection"}
        </button>
        <button type="button" className="btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <TestConnectionResult state={test} />
    </form>
  );
}

"use client";

import { Link } from "@/components/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import type { z } from "zod";
import { ErrorSummary, flattenErrors, focusErrorSummary } from "@/components/forms/error-summary";
import { notify } from "@/components/feedback";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { updateConnectionAction } from "@/lib/actions/connections";
import type { updateConnectionSchema } from "@/lib/connections/schemas";
import type { ConnectionView } from "@/lib/connections/store";
import { getKind } from "@/lib/providers";
import { CredentialFields, summaryItems } from "./credential-fields";

/** Edit label and credentials (the mode is fixed at creation); secrets start blank and a blank secret keeps the stored one. */
export function EditConnectionForm({ connection }: { connection: ConnectionView }) {
  const kind = getKind(connection.provider, connection.kind)!;
  const form = useZodForm(() => import("@/lib/connections/schemas").then((m) => m.updateConnectionSchema(kind)), {
    defaultValues: { label: connection.label, credentials: editableValues(connection, kind.modeField) },
    shouldFocusError: false,
  });
  const summaryId = "edit-errors";
  const focusSummary = () => focusErrorSummary(summaryId);
  const anyForm = form as unknown as UseFormReturn<FieldValues, unknown, FieldValues>;
  const router = useRouter();
  const { errors } = form.formState;
  const otherMode = connection.mode === "test" ? "live" : "test";
  const save = (values: z.output<ReturnType<typeof updateConnectionSchema>>) =>
    updateConnectionAction({ id: connection.id, label: values.label, credentials: values.credentials });
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, save, {
    focusSummary,
    onSuccess: (_saved, values) => {
      notify({ message: `"${values.label ?? connection.label}" saved.` });
      // What was saved is the new baseline (no unsaved changes); secrets go blank again.
      const credentials: Record<string, unknown> = { ...anyForm.getValues("credentials") };
      for (const field of kind.fields) if (field.secret) credentials[field.id] = "";
      anyForm.reset({ label: values.label ?? connection.label, credentials });
      router.refresh();
      return "Changes saved.";
    },
  });
  const saved = status !== "";
  // Save is disabled while saving, which drops the focus to the page's body: once the save is
  // committed, the confirmation takes it.
  const savedRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (saved) savedRef.current?.focus();
  }, [saved]);
  const items = form.formState.submitCount > 0 ? summaryItems(kind, "edit", flattenErrors(errors)) : [];

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Edit connection">
      <FormAlert message={items.length ? undefined : message} />
      <ErrorSummary id={summaryId} items={items} />
      {saved ? (
        <p
          ref={savedRef}
          tabIndex={-1}
          role="status"
          className="text-sm text-green-800 focus-visible:outline-2 focus-visible:outline-brand-600"
          data-testid="edit-saved"
        >
          Changes saved.
        </p>
      ) : null}
      <Field id="edit-label" label="Label" error={errors.label?.message} required>
        <input className="input" {...fieldAria("edit-label", errors.label?.message, false)} {...form.register("label")} />
      </Field>
      <div>
        <p className="label">Mode</p>
        <p className="mt-1 text-sm" data-testid="edit-mode">
          <strong>{connection.mode === "test" ? "Test" : "Live"}</strong>, fixed when the connection was created.{" "}
          <span className="text-slate-600">
            To work in {otherMode} mode, add a new {otherMode} connection from the{" "}
            <Link className="font-medium text-brand-700 underline" href={`/providers/${connection.provider}#new-connection`}>
              provider&apos;s page
            </Link>
            .
          </span>
        </p>
      </div>
      <CredentialFields form={anyForm} kind={kind} idPrefix="edit" stored={connection.credentials} />
      <SubmitButton pending={pending} pendingLabel="Saving…">
        Save changes
      </SubmitButton>
    </form>
  );
}

/**
 * The stored non-secret values, to prefill the form. An older Provider F connection's `test_mode`
 * flag is left out: the mode is shown above and cannot change.
 */
function editableValues(connection: ConnectionView, modeField: string | undefined): Record<string, unknown> {
  const { [modeField ?? ""]: _legacy, ...rest } = connection.publicValues;
  // Secrets and key files start blank, as their inputs do: otherwise the form counts as changed at the first keystroke anywhere.
  const blanks = Object.fromEntries(
    getKind(connection.provider, connection.kind)!
      .fields.filter((f) => f.secret || f.input === "key_file")
      .map((f) => [f.id, ""]),
  );
  return { ...blanks, ...(modeField ? rest : connection.publicValues) };
}

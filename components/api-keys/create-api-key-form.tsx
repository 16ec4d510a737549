"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { notify } from "@/components/feedback";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedChanges } from "@/components/forms/use-unsaved-changes";
import { createApiKeyAction } from "@/lib/actions/api-keys";

export function CreateApiKeyForm() {
  const form = useZodForm(() => import("@/lib/api-keys/schemas").then((m) => m.createApiKeySchema), { defaultValues: { name: "" } });
  const [created, setCreated] = useState<string>();
  const [copied, setCopied] = useState(false);
  const router = useRouter();
  const error = form.formState.errors.name?.message;
  useUnsavedChanges(form.formState.isDirty);
  const { onSubmit, pending, message } = useActionForm(form, createApiKeyAction, {
    onSuccess: ({ key }, values) => {
      setCreated(key);
      setCopied(false);
      // The key itself stays in the panel below (shown once); the toast confirms and offers the next step.
      notify({
        message: `API key "${values.name}" created. Copy it from the panel now: it is shown only this once.`,
        actions: [{ label: "Read the API reference", href: "/docs/api" }],
      });
      form.reset();
      router.refresh();
    },
  });

  return (
    <div className="space-y-4">
      <form method="post" onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <Field id="api-key-name" label="Key name" error={error} help="For example the system that will use it." required>
            <input className="input" {...fieldAria("api-key-name", error, true)} {...form.register("name")} />
          </Field>
        </div>
        <div className="pb-5">
          <SubmitButton pending={pending} pendingLabel="Creating…">
            Create key
          </SubmitButton>
        </div>
      </form>
      <FormAlert message={message} />
      {created ? (
        <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm">
          <p className="font-medium">Copy your new API key now. It is shown only this once.</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code data-testid="new-api-key" className="rounded bg-white px-2 py-1 font-mono text-xs break-all">
              {created}
            </code>
            <button
              type="button"
              className="btn-secondary"
              onClick={async () => {
                await navigator.clipboard?.writeText(created);
                setCopied(true);
              }}
            >
              {copied ? "Copied" : "Copy"}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

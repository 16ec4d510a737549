"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { notify } from "@/components/feedback";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { createApiKeyAction } from "@/lib/actions/api-keys";
import { NewKeyPanel } from "./new-key-panel";

const MODES = [
  { value: "test", label: "Test", help: "pok_test_…: creates and reads test invoices only (sandboxes)" },
  { value: "live", label: "Live", help: "pok_live_…: creates and reads live invoices only (real money)" },
] as const;

const SCOPES = [
  { value: "full", label: "Full access", help: "reads, creates and changes" },
  { value: "read_only", label: "Read only", help: "GET requests only; anything else is refused with 403" },
] as const;

/** `liveAllowed`: the role may make live keys too (lib/identity/permissions.ts); developers make test keys only. */
export function CreateApiKeyForm({ liveAllowed = true }: { liveAllowed?: boolean }) {
  const form = useZodForm(() => import("@/lib/api-keys/schemas").then((m) => m.createApiKeySchema), {
    defaultValues: { name: "", mode: "test", scope: "full" },
  });
  const [created, setCreated] = useState<string>();
  const router = useRouter();
  const errors = form.formState.errors;
  useUnsavedForm(form);
  const { onSubmit, pending, message } = useActionForm(form, createApiKeyAction, {
    onSuccess: ({ key }, values) => {
      setCreated(key);
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
      <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="max-w-md">
          <Field id="api-key-name" label="Key name" error={errors.name?.message} help="For example the system that will use it." required>
            <input className="input" {...fieldAria("api-key-name", errors.name?.message, true)} {...form.register("name")} />
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <fieldset aria-describedby="api-key-mode-error">
            <legend className="label">Mode</legend>
            <div className="mt-1 space-y-2 text-sm">
              {MODES.filter((mode) => liveAllowed || mode.value === "test").map((mode) => (
                <label key={mode.value} className="flex items-start gap-2">
                  <input type="radio" className="mt-1" value={mode.value} {...form.register("mode")} />
                  <span>
                    <span className="font-medium">{mode.label}</span>
                    <span className="block text-slate-600">{mode.help}</span>
                  </span>
                </label>
              ))}
            </div>
            <p id="api-key-mode-error" className="field-error" aria-live="polite">
              {errors.mode?.message}
            </p>
          </fieldset>
          <fieldset aria-describedby="api-key-scope-error">
            <legend className="label">Access</legend>
            <div className="mt-1 space-y-2 text-sm">
              {SCOPES.map((scope) => (
                <label key={scope.value} className="flex items-start gap-2">
                  <input type="radio" className="mt-1" value={scope.value} {...form.register("scope")} />
                  <span>
                    <span className="font-medium">{scope.label}</span>
                    <span className="block text-slate-600">{scope.help}</span>
                  </span>
                </label>
              ))}
            </div>
            <p id="api-key-scope-error" className="field-error" aria-live="polite">
              {errors.scope?.message}
            </p>
          </fieldset>
        </div>
        <SubmitButton pending={pending} pendingLabel="Creating…">
          Create key
        </SubmitButton>
      </form>
      <FormAlert message={message} />
      {created ? <NewKeyPanel secret={created} heading="Copy your new API key now. It is shown only this once." onDone={() => setCreated(undefined)} /> : null}
    </div>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { applyActionErrors, useZodForm } from "@/components/forms/use-zod-form";
import { renameBusinessAction } from "@/lib/actions/account";
import { businessNameSchema } from "@/lib/identity/schemas";

/** Settings → Merchant, owners only (the action checks the role itself). */
export function BusinessNameForm({ merchantName }: { merchantName: string }) {
  const form = useZodForm(businessNameSchema, { defaultValues: { merchantName } });
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const [status, setStatus] = useState("");
  const router = useRouter();
  const error = form.formState.errors.merchantName?.message;

  const onSubmit = form.handleSubmit((values) =>
    startTransition(async () => {
      setMessage(undefined);
      setStatus("");
      const result = await renameBusinessAction(values);
      if (!result.ok) return setMessage(applyActionErrors(form, result));
      form.reset(values);
      setStatus(`Saved: the business name is now ${values.merchantName}.`);
      router.refresh();
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 space-y-3 border-t border-slate-100 pt-4" aria-label="Edit business name">
      <FormAlert message={message} />
      <Field id="business-name" label="Business name" error={error} help="Shown in the dashboard and in invitation e-mails." required>
        <input className="input" autoComplete="organization" {...fieldAria("business-name", error, true)} {...form.register("merchantName")} />
      </Field>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save business name
        </SubmitButton>
        <p role="status" aria-live="polite" className="text-sm text-green-800">
          {status}
        </p>
      </div>
    </form>
  );
}

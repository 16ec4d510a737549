"use client";

import { useRouter } from "next/navigation";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { renameBusinessAction } from "@/lib/actions/account";

/** Settings → Merchant, owners only (the action checks the role itself). */
export function BusinessNameForm({ merchantName }: { merchantName: string }) {
  const form = useZodForm(() => import("@/lib/identity/schemas").then((m) => m.businessNameSchema), { defaultValues: { merchantName } });
  const router = useRouter();
  const error = form.formState.errors.merchantName?.message;
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, renameBusinessAction, {
    onSuccess: (_saved, values) => {
      form.reset(values);
      router.refresh();
      return `Saved: the business name is now ${values.merchantName}.`;
    },
  });

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

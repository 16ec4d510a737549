"use client";

import { Link } from "@/components/link";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { forgotPasswordAction } from "@/lib/actions/password";

/** Always the same confirmation, whether or not the address has an account. */
export function ForgotPasswordForm() {
  const form = useZodForm(() => import("@/lib/identity/schemas").then((m) => m.forgotPasswordSchema), { defaultValues: { email: "" } });
  const error = form.formState.errors.email?.message;
  const {
    onSubmit,
    pending,
    message,
    status: sent,
  } = useActionForm(form, forgotPasswordAction, {
    onSuccess: (_done, values) => `If ${values.email} has an account, a link to reset its password is on its way. It works once, for 30 minutes.`,
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
      <FormAlert message={message} />
      <p role="status" aria-live="polite" className={sent ? "rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900" : "sr-only"}>
        {sent}
      </p>
      <Field id="forgot-email" label="E-mail" error={error} required>
        <input className="input" type="email" autoComplete="email" {...fieldAria("forgot-email", error, false)} {...form.register("email")} />
      </Field>
      <SubmitButton pending={pending} pendingLabel="Sending…">
        Send reset link
      </SubmitButton>
      <p className="text-sm text-slate-600">
        Remembered it?{" "}
        <Link className="font-medium text-brand-700 underline" href="/sign-in">
          Sign in
        </Link>
      </p>
    </form>
  );
}

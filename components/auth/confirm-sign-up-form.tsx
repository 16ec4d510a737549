"use client";

import { useState, useTransition } from "react";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { applyActionErrors, useZodForm } from "@/components/forms/use-zod-form";
import { confirmSignUpAction } from "@/lib/actions/auth";
import { confirmSignUpSchema } from "@/lib/identity/schemas";

/** The last step of sign-up: the password chosen on the sign-up form; the account is created and the person lands on Home. */
export function ConfirmSignUpForm({ token, email }: { token: string; email: string }) {
  const form = useZodForm(confirmSignUpSchema, { defaultValues: { token, password: "" } });
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    startTransition(async () => {
      setMessage(undefined);
      const result = await confirmSignUpAction(values);
      if (!result.ok) setMessage(applyActionErrors(form, result));
    }),
  );

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Finish creating your account">
      <FormAlert message={message} />
      <input type="hidden" {...form.register("token")} />
      {/* Lets password managers file the password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <Field id="confirm-password" label="Password" help="The password you chose when signing up." error={errors.password?.message} required>
        <input className="input" type="password" autoComplete="current-password" {...fieldAria("confirm-password", errors.password?.message, true)} {...form.register("password")} />
      </Field>
      <SubmitButton pending={pending} pendingLabel="Creating account…">
        Create account
      </SubmitButton>
    </form>
  );
}

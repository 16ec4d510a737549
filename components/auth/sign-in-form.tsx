"use client";

import Link from "next/link";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { signInAction } from "@/lib/actions/auth";

export function SignInForm({ next }: { next?: string }) {
  const form = useZodForm(() => import("@/lib/identity/schemas").then((m) => m.signInSchema), { defaultValues: { email: "", password: "" } });
  const { errors } = form.formState;
  const { onSubmit, pending, message } = useActionForm(form, (values) => signInAction(values, next));

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
      <FormAlert message={message} />
      <Field id="signin-email" label="E-mail" error={errors.email?.message} required>
        <input
          className="input"
          type="email"
          autoComplete="email"
          {...fieldAria("signin-email", errors.email?.message, false)}
          {...form.register("email")}
        />
      </Field>
      <Field id="signin-password" label="Password" error={errors.password?.message} required>
        <input
          className="input"
          type="password"
          autoComplete="current-password"
          {...fieldAria("signin-password", errors.password?.message, false)}
          {...form.register("password")}
        />
      </Field>
      <SubmitButton pending={pending} pendingLabel="Signing in…">
        Sign in
      </SubmitButton>
      <p className="text-sm text-slate-600">
        New here?{" "}
        <Link className="font-medium text-brand-700 underline" href="/sign-up">
          Create an account
        </Link>
      </p>
    </form>
  );
}

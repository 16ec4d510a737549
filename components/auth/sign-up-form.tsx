"use client";

import { Link } from "@/components/link";
import { useState } from "react";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { signUpAction } from "@/lib/actions/auth";

const FIELDS = [
  { name: "name", label: "Your name", type: "text", autoComplete: "name" },
  { name: "email", label: "E-mail", type: "email", autoComplete: "email" },
  {
    name: "password",
    label: "Password",
    type: "password",
    autoComplete: "new-password",
    help: "At least 10 characters, with letters and digits.",
  },
  { name: "merchantName", label: "Business name", type: "text", autoComplete: "organization" },
  {
    name: "commerceAccount",
    label: "Commerce account",
    type: "text",
    autoComplete: "off",
    help: "Your account name in the invoice API (commerce_account): lowercase letters, digits, - and _.",
  },
] as const;

/** `outbox`: this server keeps its mail at /outbox instead of sending it (lib/mail/config.ts). */
export function SignUpForm({ outbox = false }: { outbox?: boolean }) {
  const form = useZodForm(() => import("@/lib/identity/schemas").then((m) => m.signUpSchema), {
    defaultValues: { name: "", email: "", password: "", merchantName: "", commerceAccount: "" },
  });
  const [sentTo, setSentTo] = useState<string>();
  const { errors } = form.formState;
  const { onSubmit, pending, message } = useActionForm(form, signUpAction, { onSuccess: ({ email }) => setSentTo(email) });

  // The same answer whether or not the address already has an account (only its owner learns which).
  if (sentTo) {
    return (
      <div role="status" className="space-y-2 rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-900">
        <h2 className="font-semibold">Check your e-mail</h2>
        {outbox ? (
          <p data-testid="sign-up-outbox">
            This server does not send e-mail (no SMTP_URL is set): the message to <strong>{sentTo}</strong> is in the{" "}
            <Link className="font-medium text-brand-700 underline" href="/outbox">
              outbox
            </Link>
            . Open the link in it to finish creating your account (it works for 24 hours).
          </p>
        ) : (
          <p>
            We sent a message to <strong>{sentTo}</strong>. Open the link in it to finish creating your account (it works for 24 hours).
          </p>
        )}
        <p>
          Nothing arrived? Check the spelling and your spam folder, or{" "}
          <Link className="font-medium text-brand-700 underline" href="/sign-in">
            sign in
          </Link>{" "}
          if you already have an account.
        </p>
      </div>
    );
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
      <FormAlert message={message} />
      {FIELDS.map((f) => {
        const error = errors[f.name]?.message;
        const id = `signup-${f.name}`;
        const help = "help" in f ? f.help : undefined;
        return (
          <Field key={f.name} id={id} label={f.label} help={help} error={error} required>
            <input className="input" type={f.type} autoComplete={f.autoComplete} {...fieldAria(id, error, Boolean(help))} {...form.register(f.name)} />
          </Field>
        );
      })}
      <SubmitButton pending={pending} pendingLabel="Creating account…">
        Create account
      </SubmitButton>
      <p className="text-sm text-slate-600">
        Already have an account?{" "}
        <Link className="font-medium text-brand-700 underline" href="/sign-in">
          Sign in
        </Link>
      </p>
    </form>
  );
}

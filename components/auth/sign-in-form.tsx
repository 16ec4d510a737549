"use client";

import { Link } from "@/components/link";
import { useEffect, useRef, useState } from "react";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { signInAction, signInSecondFactorAction } from "@/lib/actions/auth";

/**
 * Sign-in in one or two steps: e-mail and password, then, for someone with two-factor sign-in on,
 * a code from their app or a recovery code. The second step sends back the sealed challenge the
 * first answered; the session is issued only when the code passes.
 */
export function SignInForm({ next }: { next?: string }) {
  const [challenge, setChallenge] = useState<string>();
  const [restartNotice, setRestartNotice] = useState<string>();
  if (challenge) {
    return (
      <SecondFactorStep
        challenge={challenge}
        next={next}
        onExpired={(message) => {
          setRestartNotice(message);
          setChallenge(undefined);
        }}
      />
    );
  }
  return <PasswordStep next={next} notice={restartNotice} onSecondFactor={setChallenge} />;
}

function PasswordStep({ next, notice, onSecondFactor }: { next?: string; notice?: string; onSecondFactor: (challenge: string) => void }) {
  const form = useZodForm(() => import("@/lib/identity/schemas").then((m) => m.signInSchema), { defaultValues: { email: "", password: "" } });
  const { errors } = form.formState;
  const { onSubmit, pending, message } = useActionForm(form, (values) => signInAction(values, next), {
    onSuccess: (step) => {
      if (step?.challenge) onSecondFactor(step.challenge);
    },
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
      <FormAlert message={message ?? notice} />
      <Field id="signin-email" label="E-mail" error={errors.email?.message} required>
        <input className="input" type="email" autoComplete="email" {...fieldAria("signin-email", errors.email?.message, false)} {...form.register("email")} />
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

const EXPIRED = "This sign-in has expired";

function SecondFactorStep({ challenge, next, onExpired }: { challenge: string; next?: string; onExpired: (message: string) => void }) {
  const form = useZodForm(() => import("@/lib/identity/mfa/schemas").then((m) => m.secondFactorSignInSchema), { defaultValues: { challenge, code: "" } });
  const { errors } = form.formState;
  const heading = useRef<HTMLHeadingElement>(null);
  const { onSubmit, pending, message } = useActionForm(form, (values) => signInSecondFactorAction(values, next));
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (message?.startsWith(EXPIRED)) onExpired(message);
  }, [message, onExpired]);

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4" aria-labelledby="second-factor-heading">
      <h2 id="second-factor-heading" ref={heading} tabIndex={-1} className="text-base font-semibold">
        Two-factor authentication
      </h2>
      <p className="text-sm text-slate-700">
        Enter the 6-digit code your authenticator app shows for this account. Lost your phone? Enter one of your recovery codes instead.
      </p>
      <FormAlert message={message} />
      <input type="hidden" {...form.register("challenge")} />
      <Field id="signin-code" label="Authentication code" error={errors.code?.message} help="6 digits, or a recovery code like abcde-23456" required>
        <input
          className="input font-mono"
          type="text"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          {...fieldAria("signin-code", errors.code?.message, true)}
          {...form.register("code")}
        />
      </Field>
      <SubmitButton pending={pending} pendingLabel="Checking…">
        Verify and sign in
      </SubmitButton>
      <p className="text-sm">
        <button type="button" className="font-medium text-brand-700 underline" onClick={() => onExpired("")}>
          Start again with another account
        </button>
      </p>
    </form>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { notify } from "@/components/feedback";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { disableMfaAction, regenerateRecoveryCodesAction } from "@/lib/actions/mfa";
import { RecoveryCodes } from "./recovery-codes";

/** New recovery codes after a current code from the app; the old ones stop working. */
export function RegenerateRecoveryCodesForm() {
  const [codes, setCodes] = useState<string[]>();
  const router = useRouter();
  const form = useZodForm(() => import("@/lib/identity/mfa/schemas").then((m) => m.regenerateRecoveryCodesSchema), { defaultValues: { code: "" } });
  const error = form.formState.errors.code?.message;
  const { onSubmit, pending, message } = useActionForm(form, regenerateRecoveryCodesAction, {
    onSuccess: (data) => {
      form.reset();
      setCodes(data.recoveryCodes);
    },
  });
  if (codes) {
    return (
      <RecoveryCodes
        codes={codes}
        doneLabel="Done"
        onDone={() => {
          setCodes(undefined);
          router.refresh();
        }}
      />
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="New recovery codes">
      <FormAlert message={message} />
      <Field id="regenerate-code" label="Code from your app" error={error} help="Your current recovery codes stop working." required>
        <input
          className="input max-w-40 font-mono"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          {...fieldAria("regenerate-code", error, true)}
          {...form.register("code")}
        />
      </Field>
      <SubmitButton pending={pending} pendingLabel="Making codes…">
        Make new recovery codes
      </SubmitButton>
    </form>
  );
}

/** Turns two-factor sign-in off after the current password and a current code (or a recovery code). */
export function DisableMfaForm() {
  const router = useRouter();
  const form = useZodForm(() => import("@/lib/identity/mfa/schemas").then((m) => m.disableMfaSchema), { defaultValues: { code: "", password: "" } });
  const { errors } = form.formState;
  const { onSubmit, pending, message } = useActionForm(form, disableMfaAction, {
    onSuccess: () => {
      notify({ message: "Two-factor authentication is off." });
      router.push("/settings");
      router.refresh();
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Turn off two-factor authentication">
      <FormAlert message={message} />
      <p className="text-sm text-slate-700">
        Prove it is you with your password and a code from your app (or a recovery code). You will be signed out everywhere else.
      </p>
      <Field id="disable-password" label="Current password" error={errors.password?.message} required>
        <input
          className="input"
          type="password"
          autoComplete="current-password"
          {...fieldAria("disable-password", errors.password?.message, false)}
          {...form.register("password")}
        />
      </Field>
      <Field id="disable-code" label="Code from your app or a recovery code" error={errors.code?.message} required>
        <input
          className="input max-w-52 font-mono"
          type="text"
          autoComplete="one-time-code"
          {...fieldAria("disable-code", errors.code?.message, false)}
          {...form.register("code")}
        />
      </Field>
      <SubmitButton pending={pending} pendingLabel="Turning off…">
        Turn off two-factor authentication
      </SubmitButton>
    </form>
  );
}

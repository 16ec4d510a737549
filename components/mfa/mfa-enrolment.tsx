"use client";

import { useEffect, useRef, useState } from "react";
import { notify } from "@/components/feedback";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { confirmMfaEnrolmentAction, startMfaEnrolmentAction } from "@/lib/actions/mfa";
import { useShowEnrolmentCodes } from "./enrolment-codes";

/** What the first step answered, and the password it was given (the second step sends it again). */
type Started = { secret: string; secretGroups: string[]; uri: string; qrSvg: string; password: string };

/**
 * "Set up two-factor authentication": the current password, then a new secret as a QR code and as
 * text, a current code from the app to confirm it, then the recovery codes, shown once (by
 * `EnrolmentCodes`, which the page puts around it).
 */
export function MfaEnrolment() {
  const [started, setStarted] = useState<Started>();
  const showCodes = useShowEnrolmentCodes();
  if (started) return <ConfirmStep started={started} onConfirmed={showCodes} />;
  return <PasswordStep onStarted={setStarted} />;
}

/** Step one: the current password proves it is the person, not someone at an open session. */
function PasswordStep({ onStarted }: { onStarted: (started: Started) => void }) {
  const form = useZodForm(() => import("@/lib/identity/mfa/schemas").then((m) => m.startEnrolmentSchema), { defaultValues: { password: "" } });
  const error = form.formState.errors.password?.message;
  const { onSubmit, pending, message } = useActionForm(form, startMfaEnrolmentAction, {
    onSuccess: (data, values) => onStarted({ ...data, password: values.password }),
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Set up two-factor authentication">
      <FormAlert message={message} />
      <Field id="enrol-password" label="Current password" error={error} required>
        <input
          className="input"
          type="password"
          autoComplete="current-password"
          {...fieldAria("enrol-password", error, false)}
          {...form.register("password")}
        />
      </Field>
      <SubmitButton pending={pending} pendingLabel="Starting…">
        Set up two-factor authentication
      </SubmitButton>
    </form>
  );
}

function ConfirmStep({ started, onConfirmed }: { started: Started; onConfirmed: (codes: string[]) => void }) {
  // The password typed in step one is sent again, in its own field so a refusal can say so there.
  const form = useZodForm(() => import("@/lib/identity/mfa/schemas").then((m) => m.confirmEnrolmentSchema), {
    defaultValues: { code: "", password: started.password },
  });
  const error = form.formState.errors.code?.message;
  const passwordError = form.formState.errors.password?.message;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const { onSubmit, pending, message } = useActionForm(form, confirmMfaEnrolmentAction, {
    onSuccess: (data) => {
      notify({ message: "Two-factor authentication is on." });
      onConfirmed(data.recoveryCodes);
    },
  });
  const qrSource = `data:image/svg+xml;base64,${btoa(started.qrSvg)}`;
  return (
    <div className="space-y-4">
      <h3 id="scan-heading" ref={heading} tabIndex={-1} className="text-sm font-semibold">
        1. Add this account to your authenticator app
      </h3>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        {/* eslint-disable-next-line @next/next/no-img-element -- an SVG drawn on the server for this one secret */}
        <img
          src={qrSource}
          alt="QR code of your two-factor secret: scan it with your authenticator app"
          width={192}
          height={192}
          className="size-48 rounded-md border border-slate-200 bg-white"
        />
        <div className="min-w-0 space-y-2 text-sm text-slate-700">
          <p>
            Scan the QR code with an app such as 1Password, Google Authenticator or Microsoft Authenticator. Cannot scan? Type this key instead (time-based, 6
            digits):
          </p>
          <p
            className="font-mono text-base tracking-wide text-slate-900"
            data-testid="totp-secret"
            aria-label={`Secret key: ${started.secretGroups.join(" ")}`}
          >
            {started.secretGroups.join(" ")}
          </p>
        </div>
      </div>
      <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Confirm two-factor authentication">
        <h3 className="text-sm font-semibold">2. Enter the code your app shows</h3>
        <FormAlert message={message} />
        <Field id="enrol-code" label="6-digit code" error={error} required>
          <input
            className="input max-w-40 font-mono"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            {...fieldAria("enrol-code", error, false)}
            {...form.register("code")}
          />
        </Field>
        <Field id="enrol-confirm-password" label="Current password" error={passwordError} help="The one you entered to start." required>
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            {...fieldAria("enrol-confirm-password", passwordError, true)}
            {...form.register("password")}
          />
        </Field>
        <SubmitButton pending={pending} pendingLabel="Checking…">
          Turn on two-factor authentication
        </SubmitButton>
      </form>
    </div>
  );
}

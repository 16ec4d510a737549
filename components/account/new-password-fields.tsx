"use client";

import type { UseFormRegisterReturn } from "react-hook-form";
import { Field, fieldAria } from "@/components/forms/field";

type Input = { register: UseFormRegisterReturn; error?: string };

/**
 * A new password and its confirmation, as every form that sets one asks for them (a reset link,
 * an invitation, Settings → You): the rule said once, `new-password` for password managers, and
 * with `username` the hidden account field that files the new password under the right account.
 * The form's own schema (lib/identity/schemas.ts) checks both.
 */
export function NewPasswordFields({ idPrefix, password, confirm, username }: { idPrefix: string; password: Input; confirm: Input; username?: string }) {
  const ids = { password: `${idPrefix}-password`, confirm: `${idPrefix}-password-confirm` };
  return (
    <>
      {username !== undefined ? <input type="email" name="username" autoComplete="username" value={username} readOnly hidden /> : null}
      <Field id={ids.password} label="New password" error={password.error} help="At least 10 characters with letters and digits." required>
        <input className="input" type="password" autoComplete="new-password" {...fieldAria(ids.password, password.error, true)} {...password.register} />
      </Field>
      <Field id={ids.confirm} label="Confirm new password" error={confirm.error} required>
        <input className="input" type="password" autoComplete="new-password" {...fieldAria(ids.confirm, confirm.error, false)} {...confirm.register} />
      </Field>
    </>
  );
}

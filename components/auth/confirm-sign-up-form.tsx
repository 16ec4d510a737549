"use client";

import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { confirmSignUpAction } from "@/lib/actions/auth";

/**
 * The last step of sign-up: the account is created and the person lands on Home, signed in. In the
 * browser that signed up (`sameBrowser`, the server's reading of its cookie) one press does it;
 * anywhere else the password chosen on the sign-up form proves it is them. Should the server no
 * longer see that browser (its mark expired), it asks for the password and the field appears.
 */
export function ConfirmSignUpForm({ token, email, sameBrowser }: { token: string; email: string; sameBrowser: boolean }) {
  const form = useZodForm(() => import("@/lib/identity/schemas").then((m) => m.confirmSignUpSchema), { defaultValues: { token, password: "" } });
  const { errors } = form.formState;
  const { onSubmit, pending, message } = useActionForm(form, confirmSignUpAction);
  const askPassword = !sameBrowser || Boolean(errors.password);

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Finish creating your account">
      <FormAlert message={message} />
      <input type="hidden" {...form.register("token")} />
      {askPassword ? (
        <>
          {/* Lets password managers file the password under the right account. */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <Field id="confirm-password" label="Password" help="The password you chose when signing up." error={errors.password?.message} required>
            <input
              className="input"
              type="password"
              autoComplete="current-password"
              {...fieldAria("confirm-password", errors.password?.message, true)}
              {...form.register("password")}
            />
          </Field>
        </>
      ) : null}
      <SubmitButton pending={pending} pendingLabel="Creating account…">
        Create account
      </SubmitButton>
    </form>
  );
}

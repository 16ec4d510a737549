"use client";

import { NewPasswordFields } from "@/components/account/new-password-fields";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { changePasswordAction } from "@/lib/actions/account";

/** Settings → You: the same schema checks the fields here and in the action (lib/identity/schemas.ts). */
export function ChangePasswordForm() {
  const form = useZodForm(() => import("@/lib/identity/schemas").then((m) => m.changePasswordSchema), {
    defaultValues: { currentPassword: "", password: "", confirmPassword: "" },
  });
  const { errors } = form.formState;
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, changePasswordAction, {
    onSuccess: () => {
      form.reset();
      return "Password changed. Use the new one next time you sign in.";
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Change password">
      <FormAlert message={message} />
      <Field id="current-password" label="Current password" error={errors.currentPassword?.message} required>
        <input
          className="input"
          type="password"
          autoComplete="current-password"
          {...fieldAria("current-password", errors.currentPassword?.message, false)}
          {...form.register("currentPassword")}
        />
      </Field>
      <NewPasswordFields
        idPrefix="new"
        password={{ register: form.register("password"), error: errors.password?.message }}
        confirm={{ register: form.register("confirmPassword"), error: errors.confirmPassword?.message }}
      />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending} pendingLabel="Changing…">
          Change password
        </SubmitButton>
        <p role="status" aria-live="polite" className="text-sm text-green-800">
          {status}
        </p>
      </div>
    </form>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { NewPasswordFields } from "@/components/account/new-password-fields";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { resetPasswordAction } from "@/lib/actions/password";

/**
 * The page behind a password-reset link. On success the person goes to sign-in with a notice, and
 * signs in with the password just chosen (an invitation has its own form: accept-invite-form.tsx).
 */
export function SetPasswordForm({ token, email }: { token: string; email: string }) {
  const form = useZodForm(() => import("@/lib/identity/schemas").then((m) => m.setPasswordSchema), {
    defaultValues: { token, password: "", confirmPassword: "" },
  });
  const router = useRouter();
  const { errors } = form.formState;
  const { onSubmit, pending, message } = useActionForm(form, resetPasswordAction, {
    onSuccess: () => router.push("/sign-in?notice=password-reset"),
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4">
      <FormAlert message={message} />
      <input type="hidden" {...form.register("token")} />
      <NewPasswordFields
        idPrefix="set"
        username={email}
        password={{ register: form.register("password"), error: errors.password?.message }}
        confirm={{ register: form.register("confirmPassword"), error: errors.confirmPassword?.message }}
      />
      <SubmitButton pending={pending} pendingLabel="Saving…">
        Set new password
      </SubmitButton>
    </form>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { NewPasswordFields } from "@/components/account/new-password-fields";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { acceptInviteAction } from "@/lib/actions/password";

/**
 * The invitation link's page: the member's name (as the inviter wrote it, theirs to correct) and the
 * password they will sign in with. The action uses up the link and signs them in: they land on Home.
 * Only if that session was refused does the answer come back here, and they go to sign in.
 */
export function AcceptInviteForm({ token, email, name }: { token: string; email: string; name: string }) {
  const form = useZodForm(() => import("@/lib/identity/schemas").then((m) => m.acceptInviteSchema), {
    defaultValues: { token, name, password: "", confirmPassword: "" },
  });
  const router = useRouter();
  const { errors } = form.formState;
  const { onSubmit, pending, message } = useActionForm(form, acceptInviteAction, {
    onSuccess: () => router.push("/sign-in?notice=invite-accepted"),
  });

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Join your team">
      <FormAlert message={message} />
      <input type="hidden" {...form.register("token")} />
      <Field id="invite-name" label="Your name" error={errors.name?.message} help="Shown to your team." required>
        <input className="input" type="text" autoComplete="name" {...fieldAria("invite-name", errors.name?.message, true)} {...form.register("name")} />
      </Field>
      <NewPasswordFields
        idPrefix="set"
        username={email}
        password={{ register: form.register("password"), error: errors.password?.message }}
        confirm={{ register: form.register("confirmPassword"), error: errors.confirmPassword?.message }}
      />
      <SubmitButton pending={pending} pendingLabel="Joining…">
        Set password and join
      </SubmitButton>
    </form>
  );
}

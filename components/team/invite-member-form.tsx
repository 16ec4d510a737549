"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { applyActionErrors, useZodForm } from "@/components/forms/use-zod-form";
import { inviteMemberAction } from "@/lib/actions/team";
import { inviteMemberSchema } from "@/lib/merchants/invites";

/** Owners invite by e-mail: the member follows the link and chooses their own password. */
export function InviteMemberForm() {
  const form = useZodForm(inviteMemberSchema, { defaultValues: { name: "", email: "", role: "support" } });
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const [sent, setSent] = useState("");
  const router = useRouter();
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    startTransition(async () => {
      setMessage(undefined);
      setSent("");
      const result = await inviteMemberAction(values);
      router.refresh();
      if (!result.ok) return setMessage(applyActionErrors(form, result));
      setSent(`Invitation sent to ${values.email}. The link works once, for 7 days.`);
      form.reset();
    }),
  );

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="grid gap-4 md:grid-cols-3" aria-label="Invite a member">
      <div className="md:col-span-3">
        <FormAlert message={message} />
        <p role="status" aria-live="polite" className="text-sm text-green-800">
          {sent}
        </p>
      </div>
      <Field id="member-name" label="Name" error={errors.name?.message} required>
        <input className="input" autoComplete="off" {...fieldAria("member-name", errors.name?.message, false)} {...form.register("name")} />
      </Field>
      <Field id="member-email" label="E-mail" error={errors.email?.message} required>
        <input className="input" type="email" autoComplete="off" {...fieldAria("member-email", errors.email?.message, false)} {...form.register("email")} />
      </Field>
      <Field id="member-role" label="Role" error={errors.role?.message} help="Support may read invoices and compose test invoices; it never sees credentials or API keys." required>
        <select className="input" {...fieldAria("member-role", errors.role?.message, true)} {...form.register("role")}>
          <option value="support">Support</option>
          <option value="owner">Owner</option>
        </select>
      </Field>
      <div className="md:col-span-3">
        <SubmitButton pending={pending} pendingLabel="Sending…">
          Send invitation
        </SubmitButton>
      </div>
    </form>
  );
}

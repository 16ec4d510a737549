"use client";

import { useRouter } from "next/navigation";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { inviteMemberAction } from "@/lib/actions/team";
import type { Role } from "@/lib/db/schema";
import { describeRole, ROLE_ORDER } from "@/lib/identity/permissions";
import { RoleOptions } from "./role-select";

/** What the chosen role may do, from the permission table (the Team page lists every role the same way). */
function RoleHelp({ role }: { role: Role | undefined }) {
  if (!role || !(role in ROLE_HELP)) return null;
  return <>{ROLE_HELP[role]}</>;
}

const ROLE_HELP = Object.fromEntries(
  ROLE_ORDER.map((role) => {
    const { purpose, may } = describeRole(role);
    return [role, `${purpose} May ${may.join(", ")}.`];
  }),
) as Record<Role, string>;

/** Owners invite by e-mail: the member follows the link and chooses their own password. */
export function InviteMemberForm() {
  const form = useZodForm(() => import("@/lib/merchants/invites").then((m) => m.inviteMemberSchema), {
    defaultValues: { name: "", email: "", role: "support" },
  });
  const router = useRouter();
  const { errors } = form.formState;
  const role = form.watch("role");
  const invite = async (values: Parameters<typeof inviteMemberAction>[0]) => {
    const result = await inviteMemberAction(values);
    // A refused e-mail still saved the invitation: the list shows it either way.
    router.refresh();
    return result;
  };
  useUnsavedForm(form);
  const {
    onSubmit,
    pending,
    message,
    status: sent,
  } = useActionForm(form, invite, {
    onSuccess: (_done, values) => {
      form.reset();
      return `Invitation sent to ${values.email}. The link works once, for 7 days.`;
    },
  });

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
      <Field id="member-role" label="Role" error={errors.role?.message} help={<RoleHelp role={role} />} required>
        <select className="input" {...fieldAria("member-role", errors.role?.message, true)} {...form.register("role")}>
          <RoleOptions />
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

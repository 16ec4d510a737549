"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Field, FormAlert, SubmitButton, fieldAria } from "@/components/forms/field";
import { applyActionErrors, useZodForm } from "@/components/forms/use-zod-form";
import { addMemberAction } from "@/lib/actions/team";
import { addMemberSchema } from "@/lib/merchants/team";

export function AddMemberForm() {
  const form = useZodForm(addMemberSchema, { defaultValues: { name: "", email: "", role: "support", password: "" } });
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const [added, setAdded] = useState<string>();
  const router = useRouter();
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) =>
    startTransition(async () => {
      setMessage(undefined);
      setAdded(undefined);
      const result = await addMemberAction(values);
      if (!result.ok) return setMessage(applyActionErrors(form, result));
      setAdded(`${values.name} can now sign in as ${values.email}.`);
      form.reset();
      router.refresh();
    }),
  );

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="grid gap-4 md:grid-cols-2">
      <div className="md:col-span-2">
        <FormAlert message={message} />
        {added ? <p role="status" className="text-sm text-green-800">{added}</p> : null}
      </div>
      <Field id="member-name" label="Name" error={errors.name?.message} required>
        <input className="input" {...fieldAria("member-name", errors.name?.message, false)} {...form.register("name")} />
      </Field>
      <Field id="member-email" label="E-mail" error={errors.email?.message} required>
        <input className="input" type="email" {...fieldAria("member-email", errors.email?.message, false)} {...form.register("email")} />
      </Field>
      <Field id="member-role" label="Role" error={errors.role?.message} help="Support may read invoices and compose test invoices; it never sees credentials or API keys." required>
        <select className="input" {...fieldAria("member-role", errors.role?.message, true)} {...form.register("role")}>
          <option value="support">Support</option>
          <option value="owner">Owner</option>
        </select>
      </Field>
      <Field id="member-password" label="Initial password" error={errors.password?.message} help="Share it with them privately; at least 10 characters with letters and digits." required>
        <input className="input" type="password" autoComplete="new-password" {...fieldAria("member-password", errors.password?.message, true)} {...form.register("password")} />
      </Field>
      <div className="md:col-span-2">
        <SubmitButton pending={pending} pendingLabel="Adding…">
          Add member
        </SubmitButton>
      </div>
    </form>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { addBlocklistEntryAction } from "@/lib/actions/risk";

const KINDS = [
  ["email", "Customer e-mail"],
  ["bin", "Card BIN"],
  ["address", "Client address or range"],
  ["country", "Customer country"],
] as const;

/** The Risk page's "Add to the blocklist" for the view's mode (a card is blocked from its invoice's page). */
export function BlocklistForm({ mode }: { mode: "test" | "live" }) {
  const router = useRouter();
  const form = useZodForm(() => import("@/lib/risk/form-schemas").then((m) => m.addBlocklistFormSchema), {
    defaultValues: { kind: "email", value: "", note: "", mode },
  });
  useUnsavedForm(form);
  const submit = useActionForm(form, addBlocklistEntryAction, {
    onSuccess: (_result, values) => {
      form.reset({ kind: values.kind, value: "", note: "", mode });
      router.refresh();
      return `Added to the ${mode} blocklist.`;
    },
  });
  const errors = form.formState.errors;
  return (
    <form onSubmit={submit.onSubmit} noValidate aria-label="Add to the blocklist" className="grid gap-3 sm:grid-cols-[12rem_1fr]">
      <Field id="blocklist-kind" label="What" error={errors.kind?.message}>
        <select className="input w-full" {...fieldAria("blocklist-kind", errors.kind?.message, false)} {...form.register("kind")}>
          {KINDS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field
        id="blocklist-value"
        label="Value"
        error={errors.value?.message}
        help="An e-mail, 6 to 8 BIN digits, an address or range such as 203.0.113.0/24, or a country code such as GB."
      >
        <input className="input w-full" autoComplete="off" {...fieldAria("blocklist-value", errors.value?.message, true)} {...form.register("value")} />
      </Field>
      <div className="sm:col-span-2">
        <Field id="blocklist-note" label="Note (optional)" error={errors.note?.message}>
          <input className="input w-full" autoComplete="off" {...fieldAria("blocklist-note", errors.note?.message, false)} {...form.register("note")} />
        </Field>
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <SubmitButton pending={submit.pending} pendingLabel="Adding…">
          Add to the blocklist
        </SubmitButton>
        <p role="status" aria-live="polite" className="text-sm text-slate-700">
          {submit.status}
        </p>
      </div>
      <div className="sm:col-span-2">
        <FormAlert message={submit.message} />
      </div>
    </form>
  );
}

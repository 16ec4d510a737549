"use client";

import { useRouter } from "next/navigation";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { updatePersonTimeZoneAction } from "@/lib/actions/settings";

/**
 * Settings, under You, for everyone: the person's own time zone for the dashboard's dates; empty
 * means the merchant's (`merchantZone`). "Use this browser's zone" fills the field with the zone the
 * browser reports, read on the click, never while rendering (the server cannot know it).
 */
export function PersonTimeZoneForm({ timeZone, merchantZone, zones }: { timeZone: string; merchantZone: string; zones: readonly string[] }) {
  const form = useZodForm(() => import("@/lib/merchants/settings-schema").then((m) => m.personTimeZoneSchema), { defaultValues: { timeZone } });
  const router = useRouter();
  const error = form.formState.errors.timeZone?.message;
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, updatePersonTimeZoneAction, {
    onSuccess: (saved) => {
      form.reset(saved);
      router.refresh();
      return saved.timeZone ? `Saved: you see times in ${saved.timeZone}.` : `Saved: you see times in the merchant's zone (${merchantZone}).`;
    },
  });
  const fillBrowserZone = () => {
    form.setValue("timeZone", Intl.DateTimeFormat().resolvedOptions().timeZone, { shouldDirty: true, shouldValidate: true });
    document.getElementById("person-time-zone")?.focus();
  };
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Your time zone">
      <Field id="person-time-zone" label="Your time zone" error={error} help={`The dashboard shows dates in it. Empty: the merchant's zone (${merchantZone}).`}>
        <input
          className="input max-w-80"
          type="text"
          list="person-time-zones"
          autoComplete="off"
          spellCheck={false}
          {...fieldAria("person-time-zone", error, true)}
          {...form.register("timeZone")}
        />
        <datalist id="person-time-zones">
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      </Field>
      <FormAlert message={message} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" className="btn-secondary" onClick={fillBrowserZone}>
          Use this browser&apos;s zone
        </button>
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save your time zone
        </SubmitButton>
        <p role="status" aria-live="polite" className="text-sm text-slate-700">
          {status}
        </p>
      </div>
    </form>
  );
}

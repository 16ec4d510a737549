"use client";

import { useRouter } from "next/navigation";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedChanges } from "@/components/forms/use-unsaved-changes";
import { updateMerchantTimeZoneAction } from "@/lib/actions/settings";

/**
 * Settings, owners only: the merchant's time zone, from the zones the server knows (`zones`), so a
 * name the server would refuse is never offered. Support members see it read-only.
 */
export function TimeZoneForm({ timeZone, zones, readOnly = false }: { timeZone: string; zones: readonly string[]; readOnly?: boolean }) {
  const form = useZodForm(() => import("@/lib/merchants/settings-schema").then((m) => m.merchantTimeZoneSchema), { defaultValues: { timeZone } });
  const router = useRouter();
  const error = form.formState.errors.timeZone?.message;
  useUnsavedChanges(form.formState.isDirty);
  const { onSubmit, pending, message, status } = useActionForm(form, updateMerchantTimeZoneAction, {
    onSuccess: (saved) => {
      form.reset(saved);
      router.refresh();
      return `Saved: the export writes times in ${saved.timeZone}.`;
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Time zone">
      <Field id="merchant-time-zone" label="Time zone" error={error} help="The invoice export writes its times in this zone, with the offset (ISO 8601), e.g. 2026-12-06T02:13:05+01:00.">
        <select className="input max-w-80" disabled={readOnly} {...fieldAria("merchant-time-zone", error, true)} {...form.register("timeZone")}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </Field>
      <FormAlert message={message} />
      {readOnly ? (
        <p className="text-sm text-slate-700">Only an owner can change the time zone.</p>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save time zone
          </SubmitButton>
          <p role="status" aria-live="polite" className="text-sm text-slate-700">
            {status}
          </p>
        </div>
      )}
    </form>
  );
}

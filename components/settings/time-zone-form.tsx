"use client";

import { useRouter } from "next/navigation";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { updateMerchantTimeZoneAction } from "@/lib/actions/settings";

/**
 * Settings, owners only: the merchant's time zone, typed with the zones the server knows (`zones`)
 * as suggestions; a name neither knows is refused on the field. Support members see it read-only.
 */
export function TimeZoneForm({ timeZone, zones, readOnly = false }: { timeZone: string; zones: readonly string[]; readOnly?: boolean }) {
  const form = useZodForm(() => import("@/lib/merchants/settings-schema").then((m) => m.merchantTimeZoneSchema), { defaultValues: { timeZone } });
  const router = useRouter();
  const error = form.formState.errors.timeZone?.message;
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, updateMerchantTimeZoneAction, {
    onSuccess: (saved) => {
      form.reset(saved);
      router.refresh();
      return `Saved: the export writes times in ${saved.timeZone}.`;
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Time zone">
      <Field
        id="merchant-time-zone"
        label="Time zone"
        error={error}
        help="An IANA name such as Europe/Berlin; start typing a city for suggestions. The invoice export writes its times in this zone, with the offset (ISO 8601), e.g. 2026-12-06T02:13:05+01:00."
      >
        {/* A text field with the zones as suggestions: typing "Kolkata" finds Asia/Kolkata at any typing speed, which a 400-option list does not. */}
        <input
          className="input max-w-80"
          type="text"
          list="merchant-time-zones"
          autoComplete="off"
          spellCheck={false}
          readOnly={readOnly}
          aria-readonly={readOnly || undefined}
          {...fieldAria("merchant-time-zone", error, true)}
          {...form.register("timeZone")}
        />
        <datalist id="merchant-time-zones">
          {zones.map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
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

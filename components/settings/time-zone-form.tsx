"use client";

import { Field, fieldAria } from "@/components/forms/field";
import { SettingForm, useSettingForm } from "@/components/forms/setting-form";
import { updateMerchantTimeZoneAction } from "@/lib/actions/settings";

/**
 * Settings, owners only: the merchant's time zone, typed with the zones the server knows (`zones`)
 * as suggestions; a name neither knows is refused on the field. Support members see it read-only.
 */
export function TimeZoneForm({ timeZone, zones, readOnly = false }: { timeZone: string; zones: readonly string[]; readOnly?: boolean }) {
  const { form, ...submit } = useSettingForm(
    () => import("@/lib/merchants/settings-schema").then((m) => m.merchantTimeZoneSchema),
    { timeZone },
    updateMerchantTimeZoneAction,
    (saved) => ({ values: saved, status: `Saved: the export writes times in ${saved.timeZone}.` }),
  );
  const error = form.formState.errors.timeZone?.message;
  return (
    <SettingForm label="Time zone" submit={submit} saveLabel="Save time zone" readOnlyNote={readOnly ? "Only an owner can change the time zone." : undefined}>
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
    </SettingForm>
  );
}

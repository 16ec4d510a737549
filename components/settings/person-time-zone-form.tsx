"use client";

import { Field, fieldAria } from "@/components/forms/field";
import { SettingForm, useSettingForm } from "@/components/forms/setting-form";
import { updatePersonTimeZoneAction } from "@/lib/actions/settings";

/**
 * Settings, under You, for everyone: the person's own time zone for the dashboard's dates; empty
 * means the merchant's (`merchantZone`). "Use this browser's zone" fills the field with the zone the
 * browser reports, read on the click, never while rendering (the server cannot know it).
 */
export function PersonTimeZoneForm({ timeZone, merchantZone, zones }: { timeZone: string; merchantZone: string; zones: readonly string[] }) {
  const { form, ...submit } = useSettingForm(
    () => import("@/lib/merchants/settings-schema").then((m) => m.personTimeZoneSchema),
    { timeZone },
    updatePersonTimeZoneAction,
    (saved) => ({
      values: saved,
      status: saved.timeZone ? `Saved: you see times in ${saved.timeZone}.` : `Saved: you see times in the merchant's zone (${merchantZone}).`,
    }),
  );
  const error = form.formState.errors.timeZone?.message;
  const fillBrowserZone = () => {
    form.setValue("timeZone", Intl.DateTimeFormat().resolvedOptions().timeZone, { shouldDirty: true, shouldValidate: true });
    document.getElementById("person-time-zone")?.focus();
  };
  return (
    <SettingForm
      label="Your time zone"
      submit={submit}
      saveLabel="Save your time zone"
      actions={
        <button type="button" className="btn-secondary" onClick={fillBrowserZone}>
          Use this browser&apos;s zone
        </button>
      }
    >
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
    </SettingForm>
  );
}

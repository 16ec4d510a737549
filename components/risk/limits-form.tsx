"use client";

import { Field, fieldAria } from "@/components/forms/field";
import { SettingForm, useSettingForm } from "@/components/forms/setting-form";
import { saveRiskSettingsAction } from "@/lib/actions/risk";
import type { RiskSettings } from "@/lib/risk/settings";

const FIELDS: [keyof RiskSettings, string][] = [
  ["addressDeclines", "Declines per client address"],
  ["addressCards", "Different cards per client address"],
  ["addressWindowMinutes", "Client address window (minutes)"],
  ["cardDeclines", "Declines per card"],
  ["cardWindowMinutes", "Card window (minutes)"],
  ["emailDeclines", "Declines per customer e-mail"],
  ["emailWindowMinutes", "E-mail window (minutes)"],
  ["invoiceCards", "Different cards per invoice"],
];

/** The velocity limits at Pay: owners tune them (audited), everyone else reads them. */
export function LimitsForm({ settings, readOnly }: { settings: RiskSettings; readOnly: boolean }) {
  const { form, ...submit } = useSettingForm(
    () => import("@/lib/risk/settings").then((m) => m.riskSettingsSchema),
    settings,
    saveRiskSettingsAction,
    (saved) => ({ values: saved, status: "Saved: the next Pay is checked against these limits." }),
  );
  return (
    <SettingForm label="Velocity limits" submit={submit} saveLabel="Save limits" readOnlyNote={readOnly ? "Only an owner can change the limits." : undefined}>
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map(([name, label]) => {
          const id = `risk-${name}`;
          const error = form.formState.errors[name]?.message;
          return (
            <Field key={name} id={id} label={label} error={error}>
              <input
                className="input w-32 tabular-nums"
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                readOnly={readOnly}
                aria-readonly={readOnly || undefined}
                {...fieldAria(id, error, false)}
                {...form.register(name, { valueAsNumber: true })}
              />
            </Field>
          );
        })}
      </div>
    </SettingForm>
  );
}

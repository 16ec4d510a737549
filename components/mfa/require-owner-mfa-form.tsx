"use client";

import { CheckboxSetting } from "@/components/forms/checkbox-setting";
import { SettingForm, useSettingForm } from "@/components/forms/setting-form";
import { setRequireOwnerMfaAction } from "@/lib/actions/mfa";

/** Settings, owners only: "Require two-factor authentication for owners". */
export function RequireOwnerMfaForm({ requireOwnerMfa }: { requireOwnerMfa: boolean }) {
  const { form, ...submit } = useSettingForm(
    () => import("@/lib/identity/mfa/schemas").then((m) => m.requireOwnerMfaSchema),
    { requireOwnerMfa },
    setRequireOwnerMfaAction,
    (saved) => {
      const words = saved.requireOwnerMfa ? "Owners must now use two-factor authentication." : "Two-factor authentication is optional for owners.";
      return { values: saved, status: `Saved: ${words}`, notice: `Security settings saved. ${words}` };
    },
  );
  return (
    <SettingForm label="Security settings" submit={submit} saveLabel="Save security settings">
      <CheckboxSetting
        id="require-owner-mfa"
        label="Require two-factor authentication for owners"
        error={form.formState.errors.requireOwnerMfa?.message}
        register={form.register("requireOwnerMfa")}
        help="An owner without it is sent to set it up right after signing in, and can use nothing else until done. Turn it on for yourself first."
      />
    </SettingForm>
  );
}

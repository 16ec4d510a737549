"use client";

import { Field, fieldAria } from "@/components/forms/field";
import { SettingForm, useSettingForm } from "@/components/forms/setting-form";
import { renameBusinessAction } from "@/lib/actions/account";

/** Settings → Merchant, owners only (the action checks the role itself). */
export function BusinessNameForm({ merchantName }: { merchantName: string }) {
  const { form, ...submit } = useSettingForm(
    () => import("@/lib/identity/schemas").then((m) => m.businessNameSchema),
    { merchantName },
    renameBusinessAction,
    (_saved, values) => ({ status: `Saved: the business name is now ${values.merchantName}.` }),
  );
  const error = form.formState.errors.merchantName?.message;
  return (
    <SettingForm label="Edit business name" submit={submit} saveLabel="Save business name" className="mt-4 space-y-3 border-t border-slate-100 pt-4">
      <Field id="business-name" label="Business name" error={error} help="Shown in the dashboard and in invitation e-mails." required>
        <input className="input" autoComplete="organization" {...fieldAria("business-name", error, true)} {...form.register("merchantName")} />
      </Field>
    </SettingForm>
  );
}

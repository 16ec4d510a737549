"use client";

import { CheckboxSetting } from "@/components/forms/checkbox-setting";
import { SettingForm, useSettingForm } from "@/components/forms/setting-form";
import { updateMerchantSettingsAction } from "@/lib/actions/settings";

/** Settings, owners only: whether a live invoice may name its connection. */
export function AllowLivePinsForm({ allowLivePins }: { allowLivePins: boolean }) {
  const { form, ...submit } = useSettingForm(
    () => import("@/lib/merchants/settings-schema").then((m) => m.merchantSettingsSchema),
    { allowLivePins },
    updateMerchantSettingsAction,
    (saved) => {
      const words = saved.allowLivePins ? "Live invoices may now name their connection." : "Live invoices follow your routing order.";
      return { values: saved, status: `Saved: ${words.charAt(0).toLowerCase()}${words.slice(1)}`, notice: `Routing settings saved. ${words}` };
    },
  );
  return (
    <SettingForm label="Routing settings" submit={submit} saveLabel="Save settings">
      <CheckboxSetting
        id="allow-live-pins"
        label="Allow pinning live invoices"
        error={form.formState.errors.allowLivePins?.message}
        register={form.register("allowLivePins")}
        help={
          <>
            Test invoices may always name their connection (data.relationships.connection), so support staff can try one provider on purpose. With this on, live
            invoices may too, bypassing your routing order; pinned invoices never cascade to another connection.
          </>
        }
      />
    </SettingForm>
  );
}

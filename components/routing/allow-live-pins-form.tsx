"use client";

import { useRouter } from "next/navigation";
import { notify } from "@/components/feedback";
import { CheckboxSetting } from "@/components/forms/checkbox-setting";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { updateMerchantSettingsAction } from "@/lib/actions/settings";

/** Settings, owners only: whether a live invoice may name its connection. */
export function AllowLivePinsForm({ allowLivePins }: { allowLivePins: boolean }) {
  const form = useZodForm(() => import("@/lib/merchants/settings-schema").then((m) => m.merchantSettingsSchema), { defaultValues: { allowLivePins } });
  const router = useRouter();
  const error = form.formState.errors.allowLivePins?.message;
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, updateMerchantSettingsAction, {
    onSuccess: (saved) => {
      form.reset(saved);
      notify({
        message: `Routing settings saved. ${saved.allowLivePins ? "Live invoices may now name their connection." : "Live invoices follow your routing order."}`,
      });
      router.refresh();
      return saved.allowLivePins ? "Saved: live invoices may now name their connection." : "Saved: live invoices follow your routing order.";
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Routing settings">
      <CheckboxSetting
        id="allow-live-pins"
        label="Allow pinning live invoices"
        error={error}
        register={form.register("allowLivePins")}
        help={
          <>
            Test invoices may always name their connection (data.relationships.connection), so support staff can try one provider on purpose. With this on, live
            invoices may too, bypassing your routing order; pinned invoices never cascade to another connection.
          </>
        }
      />
      <FormAlert message={message} />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save settings
        </SubmitButton>
        <p role="status" aria-live="polite" className="text-sm text-slate-700">
          {status}
        </p>
      </div>
    </form>
  );
}

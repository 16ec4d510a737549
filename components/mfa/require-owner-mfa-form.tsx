"use client";

import { useRouter } from "next/navigation";
import { notify } from "@/components/feedback";
import { CheckboxSetting } from "@/components/forms/checkbox-setting";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { setRequireOwnerMfaAction } from "@/lib/actions/mfa";

/** Settings, owners only: "Require two-factor authentication for owners". */
export function RequireOwnerMfaForm({ requireOwnerMfa }: { requireOwnerMfa: boolean }) {
  const form = useZodForm(() => import("@/lib/identity/mfa/schemas").then((m) => m.requireOwnerMfaSchema), { defaultValues: { requireOwnerMfa } });
  const router = useRouter();
  const error = form.formState.errors.requireOwnerMfa?.message;
  useUnsavedForm(form);
  const { onSubmit, pending, message, status } = useActionForm(form, setRequireOwnerMfaAction, {
    onSuccess: (saved) => {
      form.reset(saved);
      const words = saved.requireOwnerMfa ? "Owners must now use two-factor authentication." : "Two-factor authentication is optional for owners.";
      notify({ message: `Security settings saved. ${words}` });
      router.refresh();
      return `Saved: ${words}`;
    },
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Security settings">
      <CheckboxSetting
        id="require-owner-mfa"
        label="Require two-factor authentication for owners"
        error={error}
        register={form.register("requireOwnerMfa")}
        help="An owner without it is sent to set it up right after signing in, and can use nothing else until done. Turn it on for yourself first."
      />
      <FormAlert message={message} />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending} pendingLabel="Saving…">
          Save security settings
        </SubmitButton>
        <p role="status" aria-live="polite" className="text-sm text-slate-700">
          {status}
        </p>
      </div>
    </form>
  );
}

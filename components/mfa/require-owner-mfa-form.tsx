"use client";

import { useRouter } from "next/navigation";
import { notify } from "@/components/feedback";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { setRequireOwnerMfaAction } from "@/lib/actions/mfa";

/** Settings, owners only: "Require two-factor authentication for owners". */
export function RequireOwnerMfaForm({ requireOwnerMfa }: { requireOwnerMfa: boolean }) {
  const form = useZodForm(() => import("@/lib/identity/mfa/schemas").then((m) => m.requireOwnerMfaSchema), { defaultValues: { requireOwnerMfa } });
  const router = useRouter();
  const error = form.formState.errors.requireOwnerMfa?.message;
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
      <div className="flex items-start gap-3">
        <input
          id="require-owner-mfa"
          type="checkbox"
          className="mt-1 size-4"
          aria-describedby="require-owner-mfa-help require-owner-mfa-error"
          aria-invalid={error ? true : undefined}
          {...form.register("requireOwnerMfa")}
        />
        <div>
          <label htmlFor="require-owner-mfa" className="label">
            Require two-factor authentication for owners
          </label>
          <p id="require-owner-mfa-help" className="help">
            An owner without it is sent to set it up right after signing in, and can use nothing else until done. Turn it on for yourself first.
          </p>
          <p id="require-owner-mfa-error" className="field-error" aria-live="polite">
            {error}
          </p>
        </div>
      </div>
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

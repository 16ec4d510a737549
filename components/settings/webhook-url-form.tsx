"use client";

import { useRouter } from "next/navigation";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useZodForm } from "@/components/forms/use-zod-form";
import { useUnsavedChanges } from "@/components/forms/use-unsaved-changes";
import { saveWebhookUrlAction } from "@/lib/actions/webhooks";

/**
 * Settings, owners only: the callback URL. The server checks it (https in production,
 * no private or loopback address) and the error lands on the field; the first save answers with
 * the signing secret, handed to `onSecret` to show once.
 */
export function WebhookUrlForm({ url, urlRules, onSecret }: { url: string | null; urlRules: string; onSecret: (secret: string) => void }) {
  const form = useZodForm(() => import("@/lib/webhooks/schemas").then((m) => m.webhookUrlSchema), { defaultValues: { url: url ?? "" } });
  const router = useRouter();
  const error = form.formState.errors.url?.message;
  useUnsavedChanges(form.formState.isDirty);
  const { onSubmit, pending, message, status } = useActionForm(form, saveWebhookUrlAction, {
    onSuccess: (saved) => {
      form.reset({ url: saved.url ?? "" });
      if (saved.secret) onSecret(saved.secret);
      router.refresh();
      return saved.url ? "Saved: status changes are now delivered to this URL." : "Cleared: no webhooks are sent.";
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Webhook settings">
      <Field
        id="webhook-url"
        label="Callback URL"
        error={error}
        help={`Every status change of an invoice is POSTed here as invoice.status_changed. Leave empty to stop deliveries. ${urlRules}`}
      >
        <input
          className="input font-mono"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://shop.example.com/webhooks"
          {...fieldAria("webhook-url", error, true)}
          {...form.register("url")}
        />
      </Field>
      <FormAlert message={message} />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending} pendingLabel="Checking and saving…">
          Save callback URL
        </SubmitButton>
        <p role="status" aria-live="polite" className="text-sm text-slate-700">
          {status}
        </p>
      </div>
    </form>
  );
}

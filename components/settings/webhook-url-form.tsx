"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { applyActionErrors, useZodForm } from "@/components/forms/use-zod-form";
import { saveWebhookUrlAction } from "@/lib/actions/webhooks";
import { webhookUrlSchema } from "@/lib/webhooks/schemas";

/**
 * Settings, owners only (issue 11): the callback URL. The server checks it (https in production,
 * no private or loopback address) and the error lands on the field; the first save answers with
 * the signing secret, handed to `onSecret` to show once.
 */
export function WebhookUrlForm({ url, onSecret }: { url: string | null; onSecret: (secret: string) => void }) {
  const form = useZodForm(webhookUrlSchema, { defaultValues: { url: url ?? "" } });
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string>();
  const [status, setStatus] = useState("");
  const router = useRouter();
  const error = form.formState.errors.url?.message;

  const onSubmit = form.handleSubmit((values) =>
    startTransition(async () => {
      setMessage(undefined);
      setStatus("");
      const result = await saveWebhookUrlAction(values);
      if (!result.ok) return setMessage(applyActionErrors(form, result));
      form.reset({ url: result.data.url ?? "" });
      if (result.data.secret) onSecret(result.data.secret);
      setStatus(result.data.url ? "Saved: status changes are now delivered to this URL." : "Cleared: no webhooks are sent.");
      router.refresh();
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Webhook settings">
      <Field
        id="webhook-url"
        label="Callback URL"
        error={error}
        help="Every status change of an invoice is POSTed here as invoice.status_changed. Leave empty to stop deliveries."
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

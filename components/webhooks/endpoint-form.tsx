"use client";

import { useRouter } from "next/navigation";
import { notify } from "@/components/feedback";
import { Field, fieldAria, FormAlert, SubmitButton } from "@/components/forms/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { useUnsavedForm } from "@/components/forms/use-unsaved-changes";
import { useZodForm } from "@/components/forms/use-zod-form";
import { createWebhookEndpointAction, updateWebhookEndpointAction } from "@/lib/actions/webhooks";
import { WEBHOOK_EVENT_TYPE_LABELS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/invoices/event-types";
import type { WebhookEndpointView } from "@/lib/webhooks/views";

type Values = { url: string; description: string; enabled: boolean; allEvents: boolean; eventTypes: WebhookEventType[] };

/**
 * Add or edit a webhook endpoint (owners): URL (checked by the server: https in production, no
 * private or loopback address unless allowed), description, the event types it takes (or all),
 * and whether it receives at all. Adding answers with the endpoint's signing secret, handed to
 * `onCreated` to show once.
 */
export function EndpointForm({
  endpoint,
  urlRules,
  onCreated,
  onDone,
}: {
  endpoint?: WebhookEndpointView;
  urlRules: string;
  onCreated?: (created: { id: string; url: string; secret: string }) => void;
  onDone?: () => void;
}) {
  const idBase = endpoint ? `endpoint-${endpoint.id}` : "new-endpoint";
  const defaults: Values = endpoint
    ? {
        url: endpoint.url,
        description: endpoint.description,
        enabled: endpoint.enabled,
        allEvents: endpoint.eventTypes === null,
        eventTypes: (endpoint.eventTypes ?? []).filter((type): type is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)),
      }
    : { url: "", description: "", enabled: true, allEvents: true, eventTypes: [] };
  const form = useZodForm(() => import("@/lib/webhooks/schemas").then((m) => m.webhookEndpointSchema), { defaultValues: defaults });
  const router = useRouter();
  useUnsavedForm(form);
  const errors = form.formState.errors;
  const allEvents = form.watch("allEvents");
  const submit = (values: Values) => (endpoint ? updateWebhookEndpointAction({ ...values, endpointId: endpoint.id }) : createWebhookEndpointAction(values));
  const { onSubmit, pending, message, status } = useActionForm(form, submit as (values: Values) => ReturnType<typeof createWebhookEndpointAction>, {
    onSuccess: (saved) => {
      router.refresh();
      if (endpoint) {
        notify({ message: "Endpoint saved." });
        onDone?.();
        return "Saved.";
      }
      form.reset(defaults);
      onCreated?.(saved);
      return `Added: events are now delivered to ${saved.url}.`;
    },
  });
  const typesError = (errors.eventTypes as { message?: string } | undefined)?.message;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={endpoint ? `Edit endpoint ${endpoint.url}` : "Add endpoint"}>
      <Field id={`${idBase}-url`} label="Endpoint URL" error={errors.url?.message} help={urlRules} required>
        <input
          className="input font-mono"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://shop.example.com/webhooks"
          {...fieldAria(`${idBase}-url`, errors.url?.message, true)}
          {...form.register("url")}
        />
      </Field>
      <Field
        id={`${idBase}-description`}
        label="Description"
        error={errors.description?.message}
        help="Optional: what this endpoint is for (shown in the log)."
      >
        <input
          className="input"
          type="text"
          autoComplete="off"
          {...fieldAria(`${idBase}-description`, errors.description?.message, true)}
          {...form.register("description")}
        />
      </Field>
      <fieldset className="space-y-2" aria-describedby={`${idBase}-types-error`}>
        <legend className="label">Event types</legend>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-0.5 size-4" {...form.register("allEvents")} />
          <span>
            <span className="font-medium">All events</span>
            <span className="block text-slate-600">Every type below, and any added later (the choices below are then ignored).</span>
          </span>
        </label>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className={`flex items-start gap-2 text-sm ${allEvents ? "text-slate-500" : ""}`}>
            <input type="checkbox" className="mt-0.5 size-4" value={type} {...form.register("eventTypes")} />
            <span>
              <span className="font-mono">{type}</span>
              <span className="block text-slate-600">{WEBHOOK_EVENT_TYPE_LABELS[type]}</span>
            </span>
          </label>
        ))}
        <p id={`${idBase}-types-error`} className="field-error" aria-live="polite">
          {typesError}
        </p>
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4" {...form.register("enabled")} />
        <span className="font-medium">Enabled</span>
        <span className="text-slate-600">(a disabled endpoint is sent nothing)</span>
      </label>
      <FormAlert message={message} />
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending} pendingLabel="Checking and saving…">
          {endpoint ? "Save endpoint" : "Add endpoint"}
        </SubmitButton>
        {onDone ? (
          <button type="button" className="btn-secondary" onClick={onDone} disabled={pending}>
            Cancel
          </button>
        ) : null}
        <p role="status" aria-live="polite" className="text-sm text-slate-700">
          {status}
        </p>
      </div>
    </form>
  );
}

"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { notify } from "@/components/feedback";
import { deleteWebhookEndpointAction, rotateWebhookSecretAction, sendTestWebhookAction } from "@/lib/actions/webhooks";
import { formatDateTime } from "@/lib/format";
import type { WebhookAnswer, WebhookEndpointView } from "@/lib/webhooks/views";
import { EndpointForm } from "./endpoint-form";
import { WebhookAnswerView } from "./webhook-answer";
import { WebhookSecretReveal } from "./webhook-secret-reveal";

/**
 * The Webhooks page's endpoints. Owners add, edit, delete (after a confirmation), roll an
 * endpoint's secret (shown once; the old one signs 24 hours more) and send it a test event;
 * support members see the endpoints only.
 */
export function WebhookEndpoints({ endpoints, canEdit, urlRules }: { endpoints: WebhookEndpointView[]; canEdit: boolean; urlRules: string }) {
  const [revealed, setRevealed] = useState<{ endpointId: string; secret: string }>();
  return (
    <div className="space-y-4">
      {endpoints.length === 0 ? (
        <p className="text-sm text-slate-700" data-testid="no-endpoints">
          No endpoints yet: events are stored and shown in the log below, but sent nowhere.{canEdit ? " Add one to receive them." : " An owner can add one."}
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Endpoints">
          {endpoints.map((endpoint) => (
            <EndpointCard
              key={endpoint.id}
              endpoint={endpoint}
              canEdit={canEdit}
              urlRules={urlRules}
              secret={revealed?.endpointId === endpoint.id ? revealed.secret : undefined}
              onSecret={(secret) => setRevealed({ endpointId: endpoint.id, secret })}
              onSecretDone={() => setRevealed(undefined)}
            />
          ))}
        </ul>
      )}
      {canEdit ? (
        <details className="rounded-md border border-slate-200 p-4" open={endpoints.length === 0}>
          <summary className="cursor-pointer text-sm font-semibold">Add endpoint</summary>
          <div className="mt-4">
            <EndpointForm urlRules={urlRules} onCreated={(created) => setRevealed({ endpointId: created.id, secret: created.secret })} />
          </div>
        </details>
      ) : null}
    </div>
  );
}

function EndpointCard({
  endpoint,
  canEdit,
  urlRules,
  secret,
  onSecret,
  onSecretDone,
}: {
  endpoint: WebhookEndpointView;
  canEdit: boolean;
  urlRules: string;
  secret?: string;
  onSecret: (secret: string) => void;
  onSecretDone: () => void;
}) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [answer, setAnswer] = useState<WebhookAnswer>();
  const [message, setMessage] = useState<string>();
  const [busy, setBusy] = useState<"roll" | "test" | "delete">();
  const [, startTransition] = useTransition();
  const name = endpoint.description || endpoint.url;

  const run = (kind: "roll" | "test" | "delete", work: () => Promise<void>) => {
    setBusy(kind);
    setMessage(undefined);
    startTransition(async () => {
      try {
        await work();
      } finally {
        setBusy(undefined);
      }
    });
  };
  const roll = () => {
    if (!window.confirm(`Make a new signing secret for ${name}? The current one keeps signing for 24 hours, so update your receiver within that time.`)) return;
    run("roll", async () => {
      const result = await rotateWebhookSecretAction({ endpointId: endpoint.id });
      if (!result.ok) return setMessage(result.message);
      onSecret(result.data.secret);
      router.refresh();
    });
  };
  const sendTest = () =>
    run("test", async () => {
      setAnswer(undefined);
      const result = await sendTestWebhookAction({ endpointId: endpoint.id });
      if (!result.ok) return setMessage(result.message);
      setAnswer(result.data);
      router.refresh();
    });
  const remove = () => {
    if (
      !window.confirm(
        `Delete the endpoint ${name}? Nothing more is sent to it, its pending deliveries stop and its secret is gone. The log keeps its past tries.`,
      )
    )
      return;
    run("delete", async () => {
      const result = await deleteWebhookEndpointAction({ endpointId: endpoint.id });
      if (!result.ok) return setMessage(result.message);
      notify({ message: `Endpoint ${name} deleted.` });
      router.refresh();
    });
  };

  return (
    <li className="rounded-md border border-slate-200 p-4" data-testid="webhook-endpoint" aria-label={`Endpoint ${endpoint.url}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all">{endpoint.url}</p>
          {endpoint.description ? <p className="text-sm text-slate-700">{endpoint.description}</p> : null}
          <p className="mt-1 text-xs text-slate-600">
            <span className="font-mono">{endpoint.id}</span>
          </p>
        </div>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${endpoint.enabled ? "bg-emerald-50 text-emerald-800" : "bg-slate-100 text-slate-700"}`}
          data-testid="endpoint-enabled"
        >
          {endpoint.enabled ? "Enabled" : "Disabled"}
        </span>
      </div>
      <p className="mt-2 flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm text-slate-700" data-testid="endpoint-event-types">
        <span>Events:</span>
        {endpoint.eventTypes === null ? (
          <span>all events</span>
        ) : (
          endpoint.eventTypes.map((type) => (
            <code key={type} className="font-mono text-xs break-all">
              {type}
            </code>
          ))
        )}
      </p>
      <p className="mt-1 text-sm text-slate-700" data-testid="webhook-secret-status">
        {endpoint.secretCreatedAt
          ? `Signing secret made ${formatDateTime(endpoint.secretCreatedAt)}; shown only when it was made.`
          : "No signing secret: roll one."}
      </p>
      {endpoint.retiringSecrets.map((at) => (
        <p key={at} className="text-sm text-slate-700">
          A previous secret still signs until {formatDateTime(at)}.
        </p>
      ))}
      {secret ? (
        <div className="mt-3">
          <WebhookSecretReveal secret={secret} onDone={onSecretDone} />
        </div>
      ) : null}
      {canEdit ? (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <button type="button" className="btn-secondary" onClick={() => setEditing((open) => !open)} aria-expanded={editing} disabled={Boolean(busy)}>
            {editing ? "Close edit" : "Edit"}
          </button>
          <button type="button" className="btn-secondary" onClick={roll} disabled={Boolean(busy)} aria-busy={busy === "roll"}>
            {busy === "roll" ? "Rolling…" : "Roll secret"}
          </button>
          <button type="button" className="btn-secondary" onClick={sendTest} disabled={Boolean(busy)} aria-busy={busy === "test"}>
            {busy === "test" ? "Sending…" : "Send test event"}
          </button>
          <button type="button" className="btn-secondary text-red-700" onClick={remove} disabled={Boolean(busy)} aria-busy={busy === "delete"}>
            {busy === "delete" ? "Deleting…" : "Delete"}
          </button>
        </div>
      ) : null}
      {message ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {message}
        </p>
      ) : null}
      {answer ? (
        <div className="mt-3">
          <WebhookAnswerView answer={answer} label="Test event" />
        </div>
      ) : null}
      {editing ? (
        <div className="mt-4 border-t border-slate-200 pt-4">
          <EndpointForm endpoint={endpoint} urlRules={urlRules} onDone={() => setEditing(false)} />
        </div>
      ) : null}
    </li>
  );
}

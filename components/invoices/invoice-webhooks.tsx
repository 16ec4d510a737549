"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { WebhookAnswerView } from "@/components/settings/webhook-answer";
import { resendWebhookEventAction } from "@/lib/actions/webhooks";
import { formatDateTime } from "@/lib/format";
import type { WebhookAnswer, WebhookEventView } from "@/lib/webhooks/views";

/**
 * The invoice page's webhooks: each `invoice.status_changed` event with its delivery
 * state and every try (time, HTTP status, duration, the first 1 KiB of the answer), and, for
 * owners, "Resend" (the same event id once more, so the receiver can dedupe it).
 */
const STATE_LABELS: Readonly<Record<WebhookEventView["state"], string>> = {
  pending: "Waiting for the next try",
  delivered: "Delivered",
  failed: "Failed (gave up after 24 hours)",
  no_endpoint: "Not sent: no callback URL",
};

const TRIGGER_LABELS: Readonly<Record<WebhookEventView["deliveries"][number]["trigger"], string>> = {
  automatic: "automatic",
  resend: "resend",
  test: "test",
};

function ResendButton({ eventId }: { eventId: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [answer, setAnswer] = useState<WebhookAnswer>();
  const [message, setMessage] = useState<string>();
  const run = () =>
    startTransition(async () => {
      setMessage(undefined);
      setAnswer(undefined);
      const result = await resendWebhookEventAction({ eventId });
      if (!result.ok) setMessage(result.message ?? "The event could not be resent.");
      else setAnswer(result.data);
      router.refresh();
    });
  return (
    <div className="space-y-2">
      <button type="button" className="btn-secondary" onClick={run} disabled={pending} aria-busy={pending} aria-label={`Resend event ${eventId}`}>
        {pending ? "Resending…" : "Resend"}
      </button>
      {message ? (
        <p role="alert" className="text-sm text-red-700">
          {message}
        </p>
      ) : null}
      {answer ? <WebhookAnswerView answer={answer} label="Resend" /> : null}
    </div>
  );
}

export type InvoiceWebhooksProps = {
  /** listInvoiceEvents(db, merchantId, invoiceId) from lib/webhooks/read.ts, newest first. */
  events: WebhookEventView[];
  /** Owners may resend (the action checks again). */
  canResend: boolean;
};

export function InvoiceWebhooks({ events, canResend }: InvoiceWebhooksProps) {
  if (events.length === 0) {
    return <p className="text-sm text-slate-600">No webhook events yet.</p>;
  }
  return (
    <div className="space-y-3">
      <ol className="space-y-4" data-testid="invoice-webhooks">
        {events.map((event) => (
          <li key={event.id} className="rounded-md border border-slate-200 p-3" data-testid="webhook-event">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0 text-sm">
                <p className="font-medium">
                  {event.type}
                  {event.invoiceStatus ? ` → ${event.invoiceStatus.replaceAll("_", " ")}` : ""}
                </p>
                <p className="font-mono text-xs break-all text-slate-600">{event.id}</p>
                <p className="mt-1">
                  <span data-testid="webhook-event-state">{STATE_LABELS[event.state]}</span>
                  {event.nextTryAt ? ` — next try ${formatDateTime(event.nextTryAt)}` : ""}
                </p>
              </div>
              {canResend ? <ResendButton eventId={event.id} /> : null}
            </div>
            {event.deliveries.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">No tries yet.</p>
            ) : (
              // Below md: time, status and answer (trigger and duration from md up), scrolling inside if ever wider.
              <div className="mt-2 overflow-x-auto">
                <table className="w-full text-left text-sm" aria-label={`Tries of event ${event.id}`}>
                  <thead className="text-xs text-slate-600">
                    <tr>
                      <th scope="col" className="py-1 pr-3 font-medium">Time</th>
                      <th scope="col" className="hidden py-1 pr-3 font-medium md:table-cell">Trigger</th>
                      <th scope="col" className="py-1 pr-3 font-medium">Status</th>
                      <th scope="col" className="hidden py-1 pr-3 font-medium md:table-cell">Duration</th>
                      <th scope="col" className="py-1 font-medium">Answer (first 1 KiB)</th>
                    </tr>
                  </thead>
                  <tbody>
                    {event.deliveries.map((entry) => (
                      <tr key={entry.id} className="border-t border-slate-100 align-top">
                        <td className="py-1 pr-3 whitespace-nowrap">{formatDateTime(entry.at)}</td>
                        <td className="hidden py-1 pr-3 md:table-cell">{TRIGGER_LABELS[entry.trigger]}</td>
                        <td className={`py-1 pr-3 tabular-nums ${entry.succeeded ? "text-emerald-700" : "text-red-700"}`}>
                          {entry.statusCode ?? "no answer"}
                        </td>
                        <td className="hidden py-1 pr-3 tabular-nums whitespace-nowrap md:table-cell">{entry.durationMs} ms</td>
                        <td className="py-1">
                          {entry.error ? <p className="text-red-800">{entry.error}</p> : null}
                          {entry.responseExcerpt ? (
                            <pre className="max-h-32 overflow-auto bg-slate-50 p-1 font-mono text-xs break-all whitespace-pre-wrap">{entry.responseExcerpt}</pre>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </li>
        ))}
      </ol>
      <p className="text-sm">
        <Link href="/docs/webhooks" className="text-brand-700 underline">
          How webhooks are signed and retried
        </Link>
      </p>
    </div>
  );
}

import { Link } from "@/components/link";
import { EventDeliveries } from "@/components/webhooks/event-deliveries";
import { formatDateTime } from "@/lib/format";
import { EVENT_STATE_LABELS, type WebhookEventView } from "@/lib/webhooks/views";

/**
 * The invoice page's webhooks: each event about the invoice (newest first) with its sequence,
 * its state, and its delivery to each endpoint with every try (time, HTTP status, duration, the
 * first 1 KiB of the answer); owners may resend to an endpoint. The event log has them all.
 */
export type InvoiceWebhooksProps = {
  /** listInvoiceEvents(db, merchantId, invoiceId) from lib/webhooks/read.ts, newest first. */
  events: WebhookEventView[];
  /** Owners may resend (the action checks again). */
  canResend: boolean;
  /** The zone in force for the viewer (lib/time-zones.ts), from the server. */
  timeZone: string;
};

export function InvoiceWebhooks({ events, canResend, timeZone }: InvoiceWebhooksProps) {
  if (events.length === 0) {
    return <p className="text-sm text-slate-600">No webhook events yet.</p>;
  }
  return (
    <div className="space-y-3">
      <ol className="space-y-4" data-testid="invoice-webhooks">
        {events.map((event) => (
          <li key={event.id} className="rounded-md border border-slate-200 p-3" data-testid="webhook-event">
            <div className="mb-2 min-w-0 text-sm">
              <p className="font-medium">
                {event.sequence !== null ? <span className="tabular-nums">#{event.sequence} </span> : null}
                {event.type}
                {event.invoiceStatus ? ` → ${event.invoiceStatus.replaceAll("_", " ")}` : ""}
              </p>
              <p className="font-mono text-xs break-all text-slate-600">
                <Link href={`/webhooks/events/${event.id}`} className="text-brand-700 underline">
                  {event.id}
                </Link>
              </p>
              <p className="mt-1">
                <span data-testid="webhook-event-state">{EVENT_STATE_LABELS[event.state]}</span> — {formatDateTime(event.createdAt, timeZone)}
              </p>
            </div>
            <EventDeliveries event={event} canResend={canResend} timeZone={timeZone} />
          </li>
        ))}
      </ol>
      <p className="text-sm">
        <Link href={`/webhooks?invoice=${events[0]!.invoiceId ?? ""}`} className="text-brand-700 underline">
          These events in the event log
        </Link>
        {" · "}
        <Link href="/docs/webhooks" className="text-brand-700 underline">
          How webhooks are signed and retried
        </Link>
      </p>
    </div>
  );
}

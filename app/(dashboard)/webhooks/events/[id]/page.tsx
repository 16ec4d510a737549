import type { Metadata } from "next";
import { Link } from "@/components/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/shell/page-header";
import { EventDeliveries } from "@/components/webhooks/event-deliveries";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { timeZoneInForce } from "@/lib/time-zones";
import { formatDateTime } from "@/lib/format";
import { EVENT_ID } from "@/lib/ids/patterns";
import { getEventDetail } from "@/lib/webhooks/read";
import { EVENT_STATE_LABELS } from "@/lib/webhooks/views";
import { can } from "@/lib/identity/permissions";

export const metadata: Metadata = { title: "Webhook event" };

/**
 * One event of the merchant: what it is about, its sequence, the body every endpoint receives
 * (the API's invoice document plus meta: a masked card number at most, never a secret), and its
 * delivery to each endpoint with every try; owners resend to an endpoint.
 */
export default async function WebhookEventPage({ params }: { params: Promise<{ id: string }> }) {
  const viewer = await requirePageViewer();
  const zone = timeZoneInForce(viewer);
  const { id } = await params;
  if (!EVENT_ID.test(id)) notFound();
  const event = await getEventDetail(await getDb(), viewer.merchant.id, id);
  if (!event) notFound();
  const facts: [string, React.ReactNode][] = [
    [
      "Event id",
      <span key="id" className="font-mono break-all">
        {event.id}
      </span>,
    ],
    [
      "Type",
      <span key="type" className="font-mono">
        {event.type}
      </span>,
    ],
    [
      "Invoice",
      event.invoiceId ? (
        <Link key="invoice" href={`/invoices/${event.invoiceId}`} className="font-mono break-all text-brand-700 underline">
          {event.invoiceId}
        </Link>
      ) : (
        "A sample invoice (test event)"
      ),
    ],
    ["Sequence", event.sequence !== null ? `#${event.sequence} of this invoice's events` : "none (test event)"],
    ["Created", formatDateTime(event.createdAt, zone)],
    [
      "State",
      <span key="state" data-testid="event-state">
        {EVENT_STATE_LABELS[event.state]}
      </span>,
    ],
  ];
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/webhooks" className="text-brand-700 underline">
          ← Webhooks
        </Link>
      </p>
      <PageHeader title={event.type} description="The body every endpoint receives, and how each delivery went." />
      <div className="grid gap-6 lg:grid-cols-2">
        <section className="card min-w-0" aria-labelledby="event-facts">
          <h2 id="event-facts" className="mb-3 text-base font-semibold">
            Event
          </h2>
          <dl className="grid grid-cols-[7rem_1fr] gap-y-2 text-sm">
            {facts.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-slate-600">{label}</dt>
                <dd className="min-w-0">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="card min-w-0" aria-labelledby="event-body">
          <h2 id="event-body" className="mb-3 text-base font-semibold">
            Body
          </h2>
          <pre className="max-h-96 overflow-auto rounded bg-slate-50 p-3 font-mono text-xs break-all whitespace-pre-wrap" aria-label="Event body" tabIndex={0}>
            {event.body}
          </pre>
        </section>
      </div>
      <section className="card mt-6" aria-labelledby="event-deliveries">
        <h2 id="event-deliveries" className="mb-3 text-base font-semibold">
          Deliveries
        </h2>
        <EventDeliveries event={event} canResend={can(viewer.user.role, "webhooks.manage")} timeZone={zone} />
      </section>
    </>
  );
}

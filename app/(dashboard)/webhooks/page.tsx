import type { Metadata } from "next";
import { Link } from "@/components/link";
import { PageHeader } from "@/components/shell/page-header";
import { WebhookEndpoints } from "@/components/webhooks/webhook-endpoints";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { timeZoneInForce } from "@/lib/time-zones";
import { formatDateTime } from "@/lib/format";
import { webhookUrlRules } from "@/lib/http/url-check";
import { listEndpoints } from "@/lib/webhooks/endpoints";
import { listEventLog } from "@/lib/webhooks/read";
import { readEventLogFilters, eventLogHref } from "@/lib/webhooks/log-filters";
import { EVENT_LOG_TYPES } from "@/lib/webhooks/schemas";
import { EVENT_STATE_LABELS, type WebhookLogEntryView } from "@/lib/webhooks/views";
import { WEBHOOK_EVENT_STATES } from "@/lib/db/enums";
import { can } from "@/lib/identity/permissions";

export const metadata: Metadata = { title: "Webhooks" };

const STATE_STYLES: Readonly<Record<WebhookLogEntryView["state"], string>> = {
  delivered: "bg-emerald-50 text-emerald-800",
  failing: "bg-red-50 text-red-800",
  pending: "bg-amber-50 text-amber-900",
  not_sent: "bg-slate-100 text-slate-700",
};

/**
 * Webhooks: the merchant's endpoints (owners manage them; support members see them) and the
 * event log: every event, newest first, filtered by type, state, endpoint and invoice, a page at
 * a time; each opens to its body and its deliveries per endpoint.
 */
export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await requirePageViewer();
  const zone = timeZoneInForce(viewer);
  const canEdit = can(viewer.user.role, "webhooks.manage");
  const db = await getDb();
  const { filters, dropped } = readEventLogFilters(await searchParams);
  const [endpoints, log] = await Promise.all([listEndpoints(db, viewer.merchant.id), listEventLog(db, viewer.merchant.id, filters)]);
  const filtered = Boolean(filters.type || filters.state || filters.endpoint || filters.invoice);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={
          <>
            Events about your invoices are POSTed to each enabled endpoint that takes their type, signed with that endpoint&apos;s secret and retried for 24
            hours.{" "}
            <Link href="/docs/webhooks" className="text-brand-700 underline">
              Webhooks docs: payload, signature, ordering and verification
            </Link>
          </>
        }
      />
      <section className="card max-w-3xl" aria-labelledby="webhook-endpoints">
        <h2 id="webhook-endpoints" className="mb-3 text-base font-semibold">
          Endpoints
        </h2>
        <WebhookEndpoints endpoints={endpoints} canEdit={canEdit} urlRules={webhookUrlRules()} />
      </section>

      <section className="card mt-6" aria-labelledby="event-log">
        <h2 id="event-log" className="mb-3 text-base font-semibold">
          Event log
        </h2>
        {/* Keyed by the filters: a link that changes them (Clear, a page) remounts the fields with their new defaults. */}
        <form
          key={eventLogHref(filters)}
          method="get"
          action="/webhooks"
          className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
          aria-label="Filter events"
        >
          <div>
            <label htmlFor="log-type" className="label">
              Type
            </label>
            <select id="log-type" name="type" className="input mt-1" defaultValue={filters.type ?? ""}>
              <option value="">All types</option>
              {EVENT_LOG_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="log-state" className="label">
              State
            </label>
            <select id="log-state" name="state" className="input mt-1" defaultValue={filters.state ?? ""}>
              <option value="">All states</option>
              {WEBHOOK_EVENT_STATES.map((state) => (
                <option key={state} value={state}>
                  {EVENT_STATE_LABELS[state]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="log-endpoint" className="label">
              Endpoint
            </label>
            <select id="log-endpoint" name="endpoint" className="input mt-1" defaultValue={filters.endpoint ?? ""}>
              <option value="">All endpoints</option>
              {endpoints.map((endpoint) => (
                <option key={endpoint.id} value={endpoint.id}>
                  {endpoint.description || endpoint.url}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="log-invoice" className="label">
              Invoice id
            </label>
            <input
              id="log-invoice"
              name="invoice"
              className="input mt-1 font-mono"
              placeholder="cpi_…"
              defaultValue={filters.invoice ?? ""}
              autoComplete="off"
            />
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="submit" className="btn-primary">
              Filter
            </button>
            {filtered ? (
              <Link href="/webhooks" className="btn-secondary">
                Clear
              </Link>
            ) : null}
          </div>
        </form>
        {dropped.length > 0 ? (
          <p role="alert" className="mt-3 text-sm text-red-700">
            Ignored: {dropped.join(", ")} (not a value this log knows).
          </p>
        ) : null}
        {log.events.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600" data-testid="event-log-empty">
            {filtered || filters.after ? "No events match." : "No events yet."}
          </p>
        ) : (
          <div className="mt-4 overflow-x-auto">
            <table className="w-full text-left text-sm" aria-label="Events">
              <thead className="text-xs text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Event
                  </th>
                  <th scope="col" className="hidden py-2 pr-3 font-medium md:table-cell">
                    Invoice
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    State
                  </th>
                  <th scope="col" className="hidden py-2 font-medium sm:table-cell">
                    Created
                  </th>
                </tr>
              </thead>
              <tbody>
                {log.events.map((event) => (
                  <tr key={event.id} className="border-t border-slate-100 align-top" data-testid="event-log-row">
                    <td className="py-2 pr-3">
                      <Link href={`/webhooks/events/${event.id}`} className="font-medium text-brand-700 underline">
                        {event.type}
                      </Link>
                      {event.sequence !== null ? <span className="ml-1 text-slate-600 tabular-nums">#{event.sequence}</span> : null}
                      {event.invoiceStatus && event.type === "invoice.status_changed" ? (
                        <span className="text-slate-600"> → {event.invoiceStatus.replaceAll("_", " ")}</span>
                      ) : null}
                      <span className="block font-mono text-xs break-all text-slate-600">{event.id}</span>
                      <span className="block text-xs text-slate-600 sm:hidden">{formatDateTime(event.createdAt, zone)}</span>
                    </td>
                    <td className="hidden py-2 pr-3 md:table-cell">
                      {event.invoiceId ? (
                        <Link href={`/invoices/${event.invoiceId}`} className="font-mono text-xs break-all text-brand-700 underline">
                          {event.invoiceId}
                        </Link>
                      ) : (
                        <span className="text-slate-600">sample</span>
                      )}
                    </td>
                    <td className="py-2 pr-3">
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${STATE_STYLES[event.state]}`}
                        data-testid="event-log-state"
                      >
                        {EVENT_STATE_LABELS[event.state]}
                      </span>
                      {event.endpoints > 0 ? (
                        <span className="block text-xs text-slate-600">
                          {event.delivered}/{event.endpoints} endpoints
                        </span>
                      ) : null}
                    </td>
                    <td className="hidden py-2 whitespace-nowrap sm:table-cell">{formatDateTime(event.createdAt, zone)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav className="mt-4 flex flex-wrap gap-3" aria-label="Event log pages">
          {filters.after ? (
            <Link href={eventLogHref({ ...filters, after: undefined })} className="btn-secondary">
              Newest events
            </Link>
          ) : null}
          {log.next ? (
            <Link href={eventLogHref({ ...filters, after: log.next })} className="btn-secondary" rel="next">
              Older events
            </Link>
          ) : null}
        </nav>
      </section>
    </>
  );
}

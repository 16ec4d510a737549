import "server-only";
import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents, webhookEventTargets } from "@/lib/db/schema";
import { renderEventBody } from "./body";
import { eventCursorTime, type EventLogFilters } from "./schemas";
import { eventStateOf, type WebhookEventView, type WebhookLogEntryView, type WebhookTargetView } from "./views";

export type { WebhookEventView } from "./views";

/** Events per page of the log. */
const EVENT_LOG_PAGE_SIZE = 25;

type EventRow = typeof webhookEvents.$inferSelect;

const invoiceStatusOf = (event: EventRow) => (typeof event.invoice?.status === "string" ? event.invoice.status : null);

/** Each event's deliveries per endpoint (with the endpoint's URL and description), by event id. */
async function targetsOf(db: Db, eventIds: string[]): Promise<Map<string, WebhookTargetView[]>> {
  const out = new Map<string, WebhookTargetView[]>();
  if (eventIds.length === 0) return out;
  const rows = await db
    .select({ target: webhookEventTargets, url: webhookEndpoints.url, description: webhookEndpoints.description })
    .from(webhookEventTargets)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookEventTargets.endpointId))
    .where(inArray(webhookEventTargets.eventId, eventIds))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  for (const { target, url, description } of rows) {
    const list = out.get(target.eventId) ?? [];
    list.push({
      endpointId: target.endpointId,
      url,
      description,
      state: target.state,
      tries: target.tries,
      nextTryAt: target.state === "pending" ? (target.nextTryAt?.toISOString() ?? null) : null,
    });
    out.set(target.eventId, list);
  }
  return out;
}

async function withDeliveries(db: Db, events: EventRow[]): Promise<WebhookEventView[]> {
  if (events.length === 0) return [];
  const ids = events.map((event) => event.id);
  const [targets, tries] = await Promise.all([
    targetsOf(db, ids),
    db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, ids)).orderBy(asc(webhookDeliveries.at), asc(webhookDeliveries.id)),
  ]);
  return events.map((event) => {
    const own = targets.get(event.id) ?? [];
    return {
      id: event.id,
      type: event.type,
      invoiceId: event.invoiceId,
      sequence: event.sequence,
      invoiceStatus: invoiceStatusOf(event),
      state: eventStateOf(own),
      createdAt: event.createdAt.toISOString(),
      targets: own,
      deliveries: tries
        .filter((entry) => entry.eventId === event.id)
        .map((entry) => ({
          id: entry.id,
          at: entry.at.toISOString(),
          endpointId: entry.endpointId,
          url: entry.url,
          trigger: entry.trigger,
          statusCode: entry.statusCode,
          durationMs: entry.durationMs,
          responseExcerpt: entry.responseExcerpt,
          error: entry.error,
          succeeded: entry.succeeded,
        })),
    };
  });
}

/** The invoice page's webhook section: the invoice's events, newest first, each with its deliveries. Only the merchant's own. */
export async function listInvoiceEvents(db: Db, merchantId: string, invoiceId: string): Promise<WebhookEventView[]> {
  const events = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.merchantId, merchantId), eq(webhookEvents.invoiceId, invoiceId)))
    .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.id));
  return withDeliveries(db, events);
}

/** One event of the merchant with its deliveries and the body its endpoints receive (no secret: the API's own invoice document). */
export async function getEventDetail(db: Db, merchantId: string, eventId: string): Promise<(WebhookEventView & { body: string }) | undefined> {
  const [event] = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.merchantId, merchantId)))
    .limit(1);
  if (!event) return undefined;
  const [view] = await withDeliveries(db, [event]);
  return { ...view!, body: JSON.stringify(JSON.parse(renderEventBody(event)), null, 2) };
}

const targetsWhere = (condition?: SQL) =>
  sql`exists (select 1 from ${webhookEventTargets} where ${webhookEventTargets.eventId} = ${webhookEvents.id}${condition ? sql` and ${condition}` : sql``})`;
const failingTarget = sql`(${webhookEventTargets.state} = 'failed' or (${webhookEventTargets.state} = 'pending' and ${webhookEventTargets.tries} > 0))`;

/** The state filter in SQL, the same rule as eventStateOf. */
function stateWhere(state: NonNullable<EventLogFilters["state"]>): SQL {
  switch (state) {
    case "not_sent":
      return sql`not ${targetsWhere()}`;
    case "delivered":
      return sql`${targetsWhere()} and not ${targetsWhere(sql`${webhookEventTargets.state} <> 'delivered'`)}`;
    case "failing":
      return targetsWhere(failingTarget);
    case "pending":
      return sql`${targetsWhere(sql`${webhookEventTargets.state} = 'pending'`)} and not ${targetsWhere(failingTarget)}`;
  }
}

/**
 * The event log: the merchant's events, newest first, filtered by type, state, endpoint and
 * invoice, a page at a time (keyset on created time and id: `after` is the last row of the page
 * before, so a page never repeats or skips a row while new events arrive). `next` is the cursor
 * of the next page, null on the last.
 */
export async function listEventLog(
  db: Db,
  merchantId: string,
  filters: EventLogFilters,
  pageSize = EVENT_LOG_PAGE_SIZE,
): Promise<{ events: WebhookLogEntryView[]; next: string | null }> {
  const conditions: SQL[] = [eq(webhookEvents.merchantId, merchantId)];
  if (filters.type) conditions.push(eq(webhookEvents.type, filters.type));
  if (filters.invoice) conditions.push(eq(webhookEvents.invoiceId, filters.invoice));
  if (filters.endpoint) conditions.push(targetsWhere(eq(webhookEventTargets.endpointId, filters.endpoint)));
  if (filters.state) conditions.push(stateWhere(filters.state));
  // A cursor out of the date range never gets here: readEventLogFilters drops it and the page names it.
  const at = filters.after ? eventCursorTime(filters.after)?.toISOString() : undefined;
  if (filters.after && at) {
    const id = filters.after.slice(filters.after.indexOf(".") + 1);
    conditions.push(
      or(sql`${webhookEvents.createdAt} < ${at}::timestamptz`, and(sql`${webhookEvents.createdAt} = ${at}::timestamptz`, sql`${webhookEvents.id} < ${id}`))!,
    );
  }
  const rows = await db
    .select()
    .from(webhookEvents)
    .where(and(...conditions))
    .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const targets = await targetsOf(
    db,
    page.map((event) => event.id),
  );
  const last = page.at(-1);
  return {
    events: page.map((event) => {
      const own = targets.get(event.id) ?? [];
      return {
        id: event.id,
        type: event.type,
        invoiceId: event.invoiceId,
        sequence: event.sequence,
        invoiceStatus: invoiceStatusOf(event),
        state: eventStateOf(own),
        createdAt: event.createdAt.toISOString(),
        endpoints: own.length,
        delivered: own.filter((target) => target.state === "delivered").length,
      };
    }),
    next: rows.length > pageSize && last ? `${last.createdAt.getTime()}.${last.id}` : null,
  };
}

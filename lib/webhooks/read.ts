import "server-only";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { webhookDeliveries, webhookEvents } from "@/lib/db/schema";
import type { WebhookEventView } from "./views";

export type { WebhookEventView, WebhookTryView } from "./views";

/** The invoice page's webhook section: the invoice's events, newest first, each with its tries. Only the merchant's own. */
export async function listInvoiceEvents(db: Db, merchantId: string, invoiceId: string): Promise<WebhookEventView[]> {
  const events = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.merchantId, merchantId), eq(webhookEvents.invoiceId, invoiceId)))
    .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.id));
  if (events.length === 0) return [];
  const tries = await db
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.eventId, events.map((event) => event.id)))
    .orderBy(asc(webhookDeliveries.at), asc(webhookDeliveries.id));
  return events.map((event) => ({
    id: event.id,
    type: event.type,
    invoiceStatus: typeof event.invoice?.status === "string" ? event.invoice.status : null,
    state: event.deliveryState,
    tries: event.tries,
    nextTryAt: event.deliveryState === "pending" ? (event.nextTryAt?.toISOString() ?? null) : null,
    createdAt: event.createdAt.toISOString(),
    deliveries: tries
      .filter((entry) => entry.eventId === event.id)
      .map((entry) => ({
        id: entry.id,
        at: entry.at.toISOString(),
        trigger: entry.trigger,
        statusCode: entry.statusCode,
        durationMs: entry.durationMs,
        responseExcerpt: entry.responseExcerpt,
        error: entry.error,
        succeeded: entry.succeeded,
      })),
  }));
}

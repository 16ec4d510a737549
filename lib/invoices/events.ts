import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connections, invoices, paymentMethods, webhookEndpoints, webhookEvents, webhookEventTargets } from "@/lib/db/schema";
import { subscribesTo } from "@/lib/invoices/event-types";
import { newId } from "@/lib/ids";
import type { InvoiceRow } from "./store";

/**
 * The outbox of merchant events: every status change writes its `invoice.status_changed`
 * event in the same transaction as the change, so an event exists for each change even if the
 * process dies right after. Delivery (lib/webhooks) reads it later; `invoice` is the invoice row at
 * that moment, so the delivered body shows the status the event is about.
 */
export const INVOICE_STATUS_CHANGED = "invoice.status_changed";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The row as JSON: bigints as decimal text, dates as ISO text. */
export function snapshotInvoice(row: InvoiceRow): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, typeof value === "bigint" ? value.toString() : value instanceof Date ? value.toISOString() : value]),
  );
}

const BIGINT_COLUMNS = ["amountMinor", "processedAmountMinor", "refundedAmountMinor", "disputedAmountMinor"] as const;
const DATE_COLUMNS = ["createdAt", "updatedAt", "expiresAt"] as const;

/** The invoice row back from its snapshot. */
export function invoiceFromSnapshot(snapshot: Record<string, unknown>): InvoiceRow {
  const row: Record<string, unknown> = { ...snapshot };
  for (const key of BIGINT_COLUMNS) if (typeof row[key] === "string") row[key] = BigInt(row[key]);
  // Events written before disputes existed hold no disputed amount: nothing was disputed then.
  row.disputedAmountMinor ??= 0n;
  for (const key of DATE_COLUMNS) if (typeof row[key] === "string") row[key] = new Date(row[key]);
  return row as InvoiceRow;
}

/** An event as written: its id and the endpoints it waits to be delivered to (none: nothing to queue). */
export type RecordedEvent = { eventId: string; endpointIds: string[] };

/**
 * Writes the event in the caller's transaction: its `sequence` (the invoice's counter raised by
 * one, in this transaction: the update holds the invoice row until the commit, so events of one
 * invoice are numbered 1, 2, 3 … in commit order, and a rolled-back change takes its number with
 * it), and one delivery target per enabled endpoint subscribed to its type at this moment. An
 * endpoint made later is never sent it. Without such an endpoint the event is stored unsent
 * (the log shows it).
 */
export async function recordStatusChangedEvent(tx: Tx, row: InvoiceRow): Promise<RecordedEvent> {
  // An invoice that saved or charged a card carries its payment method (no token) in the event's `included`.
  const paymentMethod = row.paymentMethodId ? await paymentMethodSnapshot(tx, row.merchantId, row.paymentMethodId) : undefined;
  return recordInvoiceEvent(tx, row, INVOICE_STATUS_CHANGED, paymentMethod ? { paymentMethod } : {});
}

/** A payment method as events keep it: every column but the sealed token, with its connection's label and whether it is deleted. */
async function paymentMethodSnapshot(tx: Tx, merchantId: string, id: string): Promise<Record<string, unknown> | undefined> {
  const { tokenSealed: _token, ...columns } = getTableColumns(paymentMethods);
  const [row] = await tx
    .select({ ...columns, connectionLabel: connections.label, connectionDeletedAt: connections.deletedAt })
    .from(paymentMethods)
    .leftJoin(connections, eq(connections.id, paymentMethods.connectionId))
    .where(and(eq(paymentMethods.merchantId, merchantId), eq(paymentMethods.id, id)));
  if (!row) return undefined;
  const { connectionDeletedAt, ...rest } = row;
  const view: Record<string, unknown> = { ...rest, connectionDeleted: connectionDeletedAt !== null };
  return Object.fromEntries(Object.entries(view).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));
}

/** An event about the invoice (`extra`: more of it, such as refund.*'s refund snapshot), written as recordStatusChangedEvent writes its own. */
export async function recordInvoiceEvent(
  tx: Tx,
  row: InvoiceRow,
  type: string,
  extra: { refund?: Record<string, unknown>; paymentMethod?: Record<string, unknown>; dispute?: Record<string, unknown>; risk?: Record<string, unknown> } = {},
): Promise<RecordedEvent> {
  const [counter] = await tx
    .update(invoices)
    .set({ eventSequence: sql`${invoices.eventSequence} + 1` })
    .where(eq(invoices.id, row.id))
    .returning({ sequence: invoices.eventSequence });
  if (!counter) throw new Error(`invoice ${row.id} not found for its event`);
  return recordMerchantEvent(tx, {
    merchantId: row.merchantId,
    type,
    invoiceId: row.id,
    sequence: counter.sequence,
    invoice: snapshotInvoice({ ...row, eventSequence: counter.sequence }),
    ...extra,
  });
}

/**
 * Writes any merchant event in the caller's transaction with one delivery target per enabled
 * endpoint subscribed to its type at this moment (the outbox every event goes through: invoice,
 * refund and payout events above, `connection.health_changed` from lib/analytics/connection-health.ts, `alert.*` from lib/alerts).
 */
export async function recordMerchantEvent(
  tx: Tx,
  event: {
    merchantId: string;
    type: string;
    invoiceId?: string | null;
    sequence?: number | null;
    invoice?: Record<string, unknown> | null;
    refund?: Record<string, unknown>;
    connection?: Record<string, unknown>;
    paymentMethod?: Record<string, unknown>;
    dispute?: Record<string, unknown>;
    alert?: Record<string, unknown>;
    risk?: Record<string, unknown>;
  },
): Promise<RecordedEvent> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.merchantId, event.merchantId), eq(webhookEndpoints.enabled, true)));
  const endpointIds = endpoints.filter((endpoint) => subscribesTo(endpoint.eventTypes, event.type)).map((endpoint) => endpoint.id);
  const eventId = newId("evt");
  await tx.insert(webhookEvents).values({
    id: eventId,
    merchantId: event.merchantId,
    invoiceId: event.invoiceId ?? null,
    type: event.type,
    sequence: event.sequence ?? null,
    invoice: event.invoice ?? null,
    ...(event.refund ? { refund: event.refund } : {}),
    ...(event.connection ? { connection: event.connection } : {}),
    ...(event.paymentMethod ? { paymentMethod: event.paymentMethod } : {}),
    ...(event.dispute ? { dispute: event.dispute } : {}),
    ...(event.alert ? { alert: event.alert } : {}),
    ...(event.risk ? { risk: event.risk } : {}),
  });
  if (endpointIds.length > 0) {
    await tx
      .insert(webhookEventTargets)
      .values(endpointIds.map((endpointId) => ({ eventId, endpointId, merchantId: event.merchantId, state: "pending" as const, nextTryAt: sql`now()` })));
  }
  return { eventId, endpointIds };
}

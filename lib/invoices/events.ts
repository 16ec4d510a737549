import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchants, webhookEvents } from "@/lib/db/schema";
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

const BIGINT_COLUMNS = ["amountMinor", "processedAmountMinor", "refundedAmountMinor"] as const;
const DATE_COLUMNS = ["createdAt", "updatedAt", "expiresAt"] as const;

/** The invoice row back from its snapshot. */
export function invoiceFromSnapshot(snapshot: Record<string, unknown>): InvoiceRow {
  const row: Record<string, unknown> = { ...snapshot };
  for (const key of BIGINT_COLUMNS) if (typeof row[key] === "string") row[key] = BigInt(row[key]);
  for (const key of DATE_COLUMNS) if (typeof row[key] === "string") row[key] = new Date(row[key]);
  return row as InvoiceRow;
}

/**
 * Writes the event in the caller's transaction. A merchant without a webhook URL gets the event
 * stored as `no_endpoint` (shown on the invoice page, never sent). Returns the event id and
 * whether it waits for delivery.
 */
export function recordStatusChangedEvent(tx: Tx, row: InvoiceRow): Promise<{ eventId: string; deliver: boolean }> {
  return recordInvoiceEvent(tx, row, INVOICE_STATUS_CHANGED);
}

/** An event about the invoice (`extra`: more of it, such as refund.*'s refund snapshot), written as recordStatusChangedEvent writes its own. */
export async function recordInvoiceEvent(tx: Tx, row: InvoiceRow, type: string, extra: { refund?: Record<string, unknown> } = {}): Promise<{ eventId: string; deliver: boolean }> {
  const [merchant] = await tx.select({ webhookUrl: merchants.webhookUrl }).from(merchants).where(eq(merchants.id, row.merchantId)).limit(1);
  const deliver = Boolean(merchant?.webhookUrl);
  const eventId = newId("evt");
  await tx.insert(webhookEvents).values({
    id: eventId,
    merchantId: row.merchantId,
    invoiceId: row.id,
    type,
    invoice: snapshotInvoice(row),
    ...extra,
    deliveryState: deliver ? "pending" : "no_endpoint",
    nextTryAt: deliver ? sql`now()` : null,
  });
  return { eventId, deliver };
}

import "server-only";
import type { Db } from "@/lib/db/client";
import { recordInvoiceEvent } from "@/lib/invoices/events";
import { queueEventDelivery } from "@/lib/invoices/status";
import type { InvoiceRow } from "@/lib/invoices/store";
import type { RefundRow } from "./store";

/**
 * The merchant's refund webhooks (REFERENCE "Webhooks to the merchant", signed and retried as every
 * event): `refund.created` when a refund is stored, `refund.succeeded` / `refund.failed` when it
 * settles. The event keeps the refund and its invoice as they were, so a late delivery still tells
 * what happened then.
 */
export const REFUND_EVENT_TYPES = ["refund.created", "refund.succeeded", "refund.failed"] as const;
type RefundEventType = (typeof REFUND_EVENT_TYPES)[number];

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The refund row as JSON: bigints as decimal text, dates as ISO text. */
function snapshotRefund(row: RefundRow): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row)
      .filter(([key]) => key !== "exchanges")
      .map(([key, value]) => [key, typeof value === "bigint" ? value.toString() : value instanceof Date ? value.toISOString() : value]),
  );
}

export function refundFromSnapshot(snapshot: Record<string, unknown>): RefundRow {
  const row: Record<string, unknown> = { exchanges: [], ...snapshot };
  if (typeof row.amountMinor === "string") row.amountMinor = BigInt(row.amountMinor);
  for (const key of ["createdAt", "updatedAt", "settledAt"]) if (typeof row[key] === "string") row[key] = new Date(row[key] as string);
  return row as RefundRow;
}

export type QueuedEvent = { queue(db: Db): Promise<void> };

/** The event for the refund's current status (created, succeeded, failed), in the caller's transaction; `queue` after commit. */
export async function recordRefundEvent(tx: Tx, refund: RefundRow, invoice: InvoiceRow): Promise<QueuedEvent | undefined> {
  const type: RefundEventType | undefined =
    refund.status === "succeeded"
      ? "refund.succeeded"
      : refund.status === "failed"
        ? "refund.failed"
        : refund.status === "created"
          ? "refund.created"
          : undefined;
  if (!type) return undefined;
  const event = await recordInvoiceEvent(tx, invoice, type, { refund: snapshotRefund(refund) });
  return { queue: (db) => queueEventDelivery(db, refund.invoiceId, event) };
}

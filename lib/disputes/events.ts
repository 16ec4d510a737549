import "server-only";
import type { Db } from "@/lib/db/client";
import { recordInvoiceEvent } from "@/lib/invoices/events";
import { queueEventDelivery } from "@/lib/invoices/status";
import type { InvoiceRow } from "@/lib/invoices/store";
import { snapshotDispute, type DisputeRow } from "./store";

/**
 * The merchant's dispute webhooks (signed and retried as every event, numbered in the invoice's
 * event sequence): `dispute.created` when a provider opens one, `dispute.updated` when it moves on
 * while open, `dispute.closed` when it is won, lost or accepted. The event keeps the dispute and
 * its invoice as they were, so a late delivery still tells what happened then.
 */
export const DISPUTE_EVENT_TYPES = ["dispute.created", "dispute.updated", "dispute.closed"] as const;
export type DisputeEventType = (typeof DISPUTE_EVENT_TYPES)[number];

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type QueuedDisputeEvent = { queue(db: Db): Promise<void> };

/** Writes the event in the caller's transaction; `queue` after the commit. */
export async function recordDisputeEvent(tx: Tx, type: DisputeEventType, dispute: DisputeRow, invoice: InvoiceRow): Promise<QueuedDisputeEvent> {
  const event = await recordInvoiceEvent(tx, invoice, type, { dispute: snapshotDispute(dispute) });
  return { queue: (db) => queueEventDelivery(db, dispute.invoiceId, event) };
}

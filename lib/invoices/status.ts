import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices, invoiceStatusHistory } from "@/lib/db/schema";
import { transition, type InvoiceStatus, type Resolution } from "./state-machine";
import type { InvoiceRow } from "./store";
import { recordStatusChangedEvent, type RecordedEvent } from "./events";
import { enqueue } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import { invoiceClassOf, putInInvoice, takeOutInvoice } from "@/lib/analytics/rollups";

/** Another writer moved the invoice since it was read; re-read it and decide again. */
export class StaleInvoiceStatusError extends Error {
  override name = "StaleInvoiceStatusError";
  constructor(
    readonly invoiceId: string,
    readonly expected: InvoiceStatus,
  ) {
    super(`Invoice ${invoiceId} is no longer ${expected}`);
  }
}

export type StatusChangeOptions = {
  /** Why, in a few words, for the history ("provider callback", "status request", …). */
  reason?: string;
  requestId?: string;
  /** Payouts: the attempts limit is used up, so process_failed is final. */
  attemptsExhausted?: boolean;
  /** What was processed, written with the move (a partial cancel), so the overview's rollups see it change with the status. */
  processedAmountMinor?: bigint;
};

/**
 * The only way an invoice's status changes after creation: the state machine decides whether the
 * move is legal (an illegal one throws IllegalTransitionError and writes nothing), the update only
 * applies if the status is still the one read (compare-and-set, so two writers cannot both move
 * it), and the move is recorded in invoice_status_history and its `invoice.status_changed` event
 * in the outbox (webhook_events) in the same transaction.
 */
export async function changeInvoiceStatus(
  db: Db,
  invoice: Pick<InvoiceRow, "id" | "status" | "direction">,
  to: InvoiceStatus,
  resolution?: Resolution,
  options: StatusChangeOptions = {},
): Promise<InvoiceRow> {
  const change = await db.transaction((tx) => changeInvoiceStatusWithin(tx, invoice, to, resolution, options));
  await queueStatusEvent(db, change);
  return change.row;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type StatusChange = { row: InvoiceRow; event: RecordedEvent };

/**
 * `changeInvoiceStatus` inside the caller's transaction (a refund settling moves its invoice in the
 * same transaction as its own row): the caller hands the result to `queueStatusEvent` once committed.
 */
export async function changeInvoiceStatusWithin(
  tx: Tx,
  invoice: Pick<InvoiceRow, "id" | "status" | "direction">,
  to: InvoiceStatus,
  resolution?: Resolution,
  options: StatusChangeOptions = {},
): Promise<StatusChange> {
  transition({ status: invoice.status, direction: invoice.direction, attemptsExhausted: options.attemptsExhausted }, to, resolution);
  // The overview's rollups (lib/analytics/rollups.ts): the invoice's contribution out before the move, in after it.
  const before = invoiceClassOf(invoice.status);
  const after = invoiceClassOf(to);
  const rollupMoves =
    (before !== "none" || after !== "none") && !(before === "processed" && after === "processed" && options.processedAmountMinor === undefined);
  if (rollupMoves && before !== "none") {
    const [locked] = await tx.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, invoice.id)).for("update");
    if (locked?.status !== invoice.status) throw new StaleInvoiceStatusError(invoice.id, invoice.status);
    await takeOutInvoice(tx, invoice.id);
  }
  const [row] = await tx
    .update(invoices)
    .set({
      status: to,
      resolution: resolution ?? null,
      updatedAt: sql`now()`,
      ...(options.processedAmountMinor !== undefined ? { processedAmountMinor: options.processedAmountMinor } : {}),
    })
    .where(
      and(
        eq(invoices.id, invoice.id),
        eq(invoices.status, invoice.status),
        // A move onto the same status (process_error recording unable_to_reconcile) happens once:
        // a second writer finds the resolution already set and loses, as for any other move.
        to === invoice.status ? sql`${invoices.resolution} is distinct from ${resolution ?? null}` : undefined,
      ),
    )
    .returning();
  if (!row) throw new StaleInvoiceStatusError(invoice.id, invoice.status);
  if (rollupMoves && after !== "none") await putInInvoice(tx, invoice.id);
  await tx.insert(invoiceStatusHistory).values({
    invoiceId: invoice.id,
    fromStatus: invoice.status,
    toStatus: to,
    resolution: resolution ?? null,
    reason: options.reason ?? "status change",
    requestId: options.requestId ?? null,
    at: row.updatedAt,
  });
  return { row, event: await recordStatusChangedEvent(tx, row) };
}

/** After the change is committed: its webhook delivery is queued (if that fails, the webhook sweep queues it later). */
export function queueStatusEvent(db: Db, { row, event }: StatusChange): Promise<void> {
  return queueEventDelivery(db, row.id, event);
}

/** Any event written in a transaction (recordInvoiceEvent, recordMerchantEvent; `invoiceId` null for connection events), once committed: the first try to each of its endpoints is queued. */
export async function queueEventDelivery(db: Db, invoiceId: string | null, event: RecordedEvent): Promise<void> {
  for (const endpointId of event.endpointIds) {
    await enqueue(db, "webhook-deliver", { eventId: event.eventId, endpointId, invoiceId, tryNo: 1 }, { key: `${event.eventId}:${endpointId}:1` }).catch(
      (error: unknown) =>
        logger.error("webhook delivery not queued", { eventId: event.eventId, endpointId, error: error instanceof Error ? error.message : String(error) }),
    );
  }
}

export type StatusHistoryEntry = typeof invoiceStatusHistory.$inferSelect;

/** Oldest first. */
export async function getStatusHistory(db: Db, invoiceId: string): Promise<StatusHistoryEntry[]> {
  return db.select().from(invoiceStatusHistory).where(eq(invoiceStatusHistory.invoiceId, invoiceId)).orderBy(invoiceStatusHistory.id);
}

import "server-only";
import { putInRefund } from "@/lib/analytics/rollups";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { findConnectionIncludingDeleted, findConnectionRow } from "@/lib/connections/queries";
import type { Db } from "@/lib/db/client";
import { OPEN_REFUND_STATUSES, type Resolution } from "@/lib/db/enums";
import { invoiceAttempts, invoices, refunds } from "@/lib/db/schema";
import { changeInvoiceStatusWithin, queueStatusEvent, type StatusChange } from "@/lib/invoices/status";
import { readInvoice } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import { prepare } from "@/lib/processing/run-attempt";
import type { RefundOutcome } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder, type Exchange } from "@/lib/providers/kit/provider-http";
import { recordRefundEvent } from "./events";
import { statusAfterRefunds } from "./rules";
import { scheduleRefundFollowUp } from "./follow-up";
import { readRefund, refundTotals, type RefundRow } from "./store";

/** An adapter that throws may have sent its request: unknown, never a failure. */
async function callSafely(call: () => Promise<RefundOutcome>): Promise<RefundOutcome> {
  try {
    return await call();
  } catch (error) {
    logger.error("provider adapter threw on a refund", { error: error instanceof Error ? error.message : String(error) });
    return { kind: "unknown", message: "The provider call failed unexpectedly; whether it refunded is not known." };
  }
}

/** The payment as the provider knows it: the successful attempt's reference and idempotency key. */
async function paymentOf(db: Db, invoiceId: string) {
  const [attempt] = await db
    .select({ providerReference: invoiceAttempts.providerReference, idempotencyKey: invoiceAttempts.idempotencyKey })
    .from(invoiceAttempts)
    .where(and(eq(invoiceAttempts.invoiceId, invoiceId), eq(invoiceAttempts.status, "succeeded")))
    .orderBy(desc(invoiceAttempts.seq))
    .limit(1);
  return attempt;
}

type Call = { kind: "send" } | { kind: "status" };

/**
 * One provider call about a refund (the refund itself, or a status request), through the connection
 * that took the payment, after the same checks as any provider call (its mode is the refund's, its
 * address is its mode's). What cannot be sent is a refusal: nothing was refunded.
 */
async function callProviderFor(db: Db, refund: RefundRow, call: Call): Promise<{ outcome: RefundOutcome; exchanges: readonly Exchange[] }> {
  const recorder = createExchangeRecorder();
  const invoice = await readInvoice(db, refund.invoiceId);
  // A new refund goes only through a connection that still exists; a refund already sent is still
  // asked about through the connection it went to, deleted or not (the money may be on its way).
  const connection =
    invoice &&
    (call.kind === "send"
      ? await findConnectionRow(db, refund.merchantId, refund.connectionId)
      : await findConnectionIncludingDeleted(db, refund.merchantId, refund.connectionId));
  const payment = invoice && (await paymentOf(db, invoice.id));
  if (!invoice || !connection || !payment?.providerReference) {
    const message = !connection
      ? "The connection that took this payment was deleted; nothing was sent."
      : "The payment's provider record is not known; nothing was sent.";
    return { outcome: call.kind === "send" ? { kind: "refused", resolution: "provider_unavailable", message } : { kind: "unknown", message }, exchanges: [] };
  }
  const prepared = await prepare(db, invoice, connection, recorder);
  if ("failure" in prepared) {
    const failure = prepared.failure;
    const resolution: Extract<Resolution, "provider_unavailable" | "provider_auth_error" | "mode_mismatch" | "general_error"> =
      failure.kind === "soft_failed" ? failure.resolution : "provider_unavailable";
    const message = "message" in failure ? failure.message : "The provider cannot be called.";
    return { outcome: call.kind === "send" ? { kind: "refused", resolution, message } : { kind: "unknown", message }, exchanges: recorder.list() };
  }
  const { adapter, context } = prepared;
  const query = { refundId: refund.id, providerReference: refund.providerReference ?? undefined, paymentReference: payment.providerReference };
  let outcome =
    call.kind === "send"
      ? await callSafely(() =>
          adapter.refund(context, {
            refundId: refund.id,
            invoiceId: invoice.id,
            paymentReference: payment.providerReference!,
            paymentKey: payment.idempotencyKey,
            currency: refund.currency,
            amount: refund.amount,
            amountMinor: refund.amountMinor,
            ...(refund.reason ? { reason: refund.reason } : {}),
          }),
        )
      : await callSafely(() => adapter.getRefundStatus(context, query));
  // Sent without an answer: one status request at once, with the same id, before anything else.
  if (call.kind === "send" && outcome.kind === "unknown") {
    const asked = await callSafely(() => adapter.getRefundStatus(context, query));
    // "Never arrived" right after a timeout may only mean "not yet": it stays unknown for the follow-ups.
    if (asked.kind !== "unknown" && asked.kind !== "refused") outcome = asked;
  }
  return { outcome, exchanges: recorder.list() };
}

/**
 * Takes the refund for one send: compare-and-set on its `updated_at`, so of two senders (the create
 * request and the crash sweep's follow-up) only one calls the provider; the other finds it taken.
 */
async function claimSend(db: Db, refund: RefundRow): Promise<RefundRow | undefined> {
  const [claimed] = await db
    .update(refunds)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(refunds.id, refund.id), inArray(refunds.status, [...OPEN_REFUND_STATUSES]), eq(refunds.updatedAt, refund.updatedAt)))
    .returning();
  return claimed;
}

/** Sends a stored refund (status `created`) and records the answer; any other refund is returned as it is. */
export async function sendRefund(db: Db, refundId: string): Promise<RefundRow> {
  const read = await readRefund(db, refundId);
  if (!read) throw new Error(`refund ${refundId} not found`);
  if (read.status !== "created") return read;
  const refund = await claimSend(db, read);
  if (!refund) return (await readRefund(db, refundId)) ?? read;
  return sendClaimed(db, refund);
}

/** The provider call for a refund this caller has claimed; the same id every time, so a resend is the same refund. */
async function sendClaimed(db: Db, refund: RefundRow): Promise<RefundRow> {
  const { outcome, exchanges } = await callProviderFor(db, refund, { kind: "send" });
  const recorded = await applyRefundOutcome(db, refund, outcome, exchanges, "refund sent", { sent: true });
  if (recorded.status === "pending") await scheduleRefundFollowUp(db, recorded, 0);
  return recorded;
}

/**
 * A status request for an open refund. A refund still `created` (its first call was interrupted,
 * a crash) is asked about first: the provider's "never arrived" then sends it, with the same id.
 */
export async function followUpRefund(db: Db, refundId: string, reason: string): Promise<RefundRow | undefined> {
  const refund = await readRefund(db, refundId);
  if (!refund || !(OPEN_REFUND_STATUSES as readonly string[]).includes(refund.status)) return refund;
  const { outcome, exchanges } = await callProviderFor(db, refund, { kind: "status" });
  if (outcome.kind === "refused") {
    // "Never arrived" fails nothing: a refund never sent, or sent without an answer, is sent again
    // with the same id (the provider takes an id once); one the provider said it took stays open.
    if (refund.status === "created" || refund.outcomeUnknown) {
      const claimed = await claimSend(db, refund);
      return claimed ? sendClaimed(db, claimed) : readRefund(db, refund.id);
    }
    return applyRefundOutcome(db, refund, { kind: "unknown", message: outcome.message }, exchanges, reason, { sent: true });
  }
  return applyRefundOutcome(db, refund, outcome, exchanges, reason, { sent: refund.status !== "created" });
}

function settledStatus(outcome: RefundOutcome, sent: boolean): { status: RefundRow["status"]; resolution: Resolution | null; unknown: boolean } {
  switch (outcome.kind) {
    case "succeeded":
      return { status: "succeeded", resolution: "ok", unknown: false };
    case "pending":
      return { status: "pending", resolution: null, unknown: false };
    case "unknown":
      // Asked about and still not known: a refund never sent stays `created` (it may still be sent).
      return { status: sent ? "pending" : "created", resolution: null, unknown: true };
    case "declined":
      return { status: "failed", resolution: "general_error", unknown: false };
    case "refused":
      return { status: "failed", resolution: outcome.resolution, unknown: false };
  }
}

/**
 * Records a provider's answer about an open refund, and, once it is the invoice's last open refund
 * to settle, moves the invoice to what has been refunded (refunded, partially_refunded, or back).
 * All in one transaction holding the invoice's row; a refund already settled is left as it is, so
 * a late callback or a second status request changes nothing.
 */
export async function applyRefundOutcome(...args: Parameters<typeof recordRefundOutcome>): Promise<RefundRow> {
  return (await recordRefundOutcome(...args)).row;
}

/** As applyRefundOutcome, and whether this call changed the refund (false: it had settled already, or meanwhile). */
export async function recordRefundOutcome(
  db: Db,
  refund: RefundRow,
  outcome: RefundOutcome,
  exchanges: readonly Exchange[],
  reason: string,
  options: { sent: boolean },
): Promise<{ row: RefundRow; applied: boolean }> {
  const next = settledStatus(outcome, options.sent);
  const final = next.status === "succeeded" || next.status === "failed";
  const providerReference = "providerReference" in outcome && outcome.providerReference ? outcome.providerReference : null;
  const message = "message" in outcome ? outcome.message : null;
  const result = await db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, refund.invoiceId)).for("update");
    const [row] = await tx
      .update(refunds)
      .set({
        status: next.status,
        resolution: next.resolution,
        outcomeUnknown: next.unknown,
        providerReference: sql`coalesce(${providerReference}, ${refunds.providerReference})`,
        message,
        exchanges: sql`${refunds.exchanges} || ${JSON.stringify(exchanges)}::jsonb`,
        updatedAt: sql`now()`,
        ...(final ? { settledAt: sql`now()` } : {}),
      })
      .where(and(eq(refunds.id, refund.id), inArray(refunds.status, [...OPEN_REFUND_STATUSES])))
      .returning();
    if (!row || !invoice) return { row: undefined, change: undefined, event: undefined };
    if (!final) return { row, change: undefined, event: undefined };
    if (row.status === "succeeded") await putInRefund(tx, row.id);
    const totals = await refundTotals(tx as unknown as Db, invoice.id);
    await tx.update(invoices).set({ refundedAmountMinor: totals.refundedMinor }).where(eq(invoices.id, invoice.id));
    let change: StatusChange | undefined;
    if (invoice.status === "refunding" && totals.open === 0) {
      const to = statusAfterRefunds(invoice, totals.refundedMinor);
      change = await changeInvoiceStatusWithin(tx, invoice, to, "ok", { reason: `refunds settled (${reason})` });
    }
    const event = await recordRefundEvent(tx, row, change?.row ?? { ...invoice, refundedAmountMinor: totals.refundedMinor });
    return { row, change, event };
  });
  if (!result.row) return { row: (await readRefund(db, refund.id)) ?? refund, applied: false };
  if (result.change) await queueStatusEvent(db, result.change);
  if (result.event) await result.event.queue(db);
  logger.info("refund outcome", { refundId: refund.id, invoiceId: refund.invoiceId, status: result.row.status, resolution: result.row.resolution, reason });
  return { row: result.row, applied: true };
}

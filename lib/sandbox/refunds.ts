import "server-only";
import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sandboxRecords } from "@/lib/db/schema";
import { enqueue } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import type { SandboxAccount } from "./accounts";
import { queueSandboxCallback } from "./callback-send";
import { decideRefund } from "./refund-triggers";
import { findRecordByIdempotencyKey, findRecordByReference, saveRecord, updateRecord, type SandboxRecord } from "./records";

/**
 * What every provider's sandbox does with a refund, whatever its wire format: each provider's
 * sandbox reads its own request, then asks here. A refund belongs to the account that sent it and
 * refunds one of that account's captured payments; its key (the service's refund id) makes a
 * resend the same refund; the refunds of one payment never add up to more than was captured; the
 * amount's cents pick the outcome (./refund-triggers.ts). Records have operation "refund", and
 * their status is "succeeded", "pending" or "declined". Like a real provider, the sandbox notifies
 * the service of every decided refund by its provider's callback: at once for one decided when
 * taken, and for a pending one when it settles (a few seconds later, or at a status request that
 * comes first).
 */

/** How long a pending test refund stays pending before its sandbox settles it and notifies. */
const SANDBOX_REFUND_SETTLES_AFTER_SECONDS = 5;

export const REFUND_OPERATION = "refund";
export type SandboxRefundStatus = "succeeded" | "pending" | "declined";

export type SandboxRefundRequest = {
  provider: string;
  account: SandboxAccount;
  /** The payment, as the provider names it in the request (its own reference). */
  paymentReference: string;
  /** The refund's idempotency key (the service's refund id). */
  refundKey: string;
  amountText: string;
  amountMinor: bigint;
  currency: string;
  /** Prefix of the provider's refund references ("rfB_"). */
  referencePrefix: string;
  /** What the provider calls a captured payment: its record's statuses, and the amount captured. */
  captured: (payment: SandboxRecord) => bigint | undefined;
  reason?: string;
  request?: unknown;
};

export type SandboxRefundResult =
  { kind: "refused"; status: 400 | 404 | 409 | 422 | 503; code: string; text: string } | { kind: "recorded"; record: SandboxRecord; declineCode?: string };

/**
 * Why the sandbox declines a refund, the same for every provider (each maps it to its own codes):
 * `declined`, the issuer refused to take the money back; `exceeds`, the refunds of the payment would
 * exceed what was captured.
 */
export type SandboxRefundDecline = "declined" | "exceeds";

/** Refunded or still pending: what the payment has given back or promised. */
async function refundedSoFar(db: Db, provider: string, connectionId: string, paymentReference: string): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${sandboxRecords.amountMinor}), 0)` })
    .from(sandboxRecords)
    .where(
      and(
        eq(sandboxRecords.provider, provider),
        eq(sandboxRecords.connectionId, connectionId),
        eq(sandboxRecords.operation, REFUND_OPERATION),
        sql`${sandboxRecords.details}->>'paymentReference' = ${paymentReference}`,
        sql`${sandboxRecords.status} in ('succeeded', 'pending')`,
      ),
    );
  return BigInt(row?.total ?? 0);
}

/** Takes a refund, or answers the one already taken under the same key by this account. */
export async function takeSandboxRefund(db: Db, request: SandboxRefundRequest): Promise<SandboxRefundResult> {
  const { account, provider } = request;
  const earlier = await findRecordByIdempotencyKey(db, provider, account.connectionId, request.refundKey);
  if (earlier) {
    if (earlier.operation !== REFUND_OPERATION)
      return { kind: "refused", status: 409, code: "key_in_use", text: "That key names another request of this account." };
    return { kind: "recorded", record: earlier, declineCode: earlier.details.declineCode as string | undefined };
  }
  const payment = await findRecordByReference(db, provider, request.paymentReference);
  if (!payment || payment.connectionId !== account.connectionId || payment.operation === REFUND_OPERATION) {
    return { kind: "refused", status: 404, code: "payment_not_found", text: "No payment with that reference on this account." };
  }
  const captured = request.captured(payment);
  // 422, not 409: providers answer 409 only for a key already in use (which the service reads as "maybe on its way").
  if (captured === undefined)
    return { kind: "refused", status: 422, code: "not_captured", text: "The payment was not captured, so there is nothing to refund." };
  if (payment.currency && payment.currency !== request.currency) {
    return { kind: "refused", status: 400, code: "currency_mismatch", text: `The payment is in ${payment.currency}, not ${request.currency}.` };
  }
  if (request.amountMinor <= 0n) return { kind: "refused", status: 400, code: "invalid_amount", text: "The amount must be above zero." };
  const decision = decideRefund(request.amountText);
  if (decision === "unavailable") return { kind: "refused", status: 503, code: "temporarily_unavailable", text: "Refunds are unavailable; try again later." };

  // Checked and recorded while holding the payment's record, so two refunds of it (other keys, same
  // moment) are counted one after the other, as a real provider's ledger would.
  const record = await db.transaction(async (tx) => {
    const locked = tx as unknown as Db;
    await tx.select({ id: sandboxRecords.id }).from(sandboxRecords).where(eq(sandboxRecords.id, payment.id)).for("update");
    const exceeds = (await refundedSoFar(locked, provider, account.connectionId, request.paymentReference)) + request.amountMinor > captured;
    const decline: SandboxRefundDecline | undefined = exceeds ? "exceeds" : decision === "decline" ? "declined" : undefined;
    const status: SandboxRefundStatus = decline ? "declined" : decision === "pending" ? "pending" : "succeeded";
    return saveRecord(locked, {
      provider,
      connectionId: account.connectionId,
      operation: REFUND_OPERATION,
      reference: `${request.referencePrefix}${randomBytes(8).toString("hex")}`,
      idempotencyKey: request.refundKey,
      amountMinor: request.amountMinor,
      currency: request.currency,
      status,
      details: {
        paymentReference: request.paymentReference,
        ...(decline ? { declineCode: decline } : {}),
        ...(request.reason ? { reason: request.reason } : {}),
      },
      request: request.request,
    });
  });
  await notifyOrSettleLater(db, record);
  return { kind: "recorded", record, declineCode: record.details.declineCode as string | undefined };
}

/** A decided refund's callback is queued; a pending one is settled later (the keys make a second queuing a no-op). */
async function notifyOrSettleLater(db: Db, record: SandboxRecord): Promise<void> {
  if (record.status !== "pending") return queueSandboxCallback(db, record);
  try {
    await enqueue(
      db,
      "sandbox-refund-settle",
      { provider: record.provider, reference: record.reference },
      { startAfter: SANDBOX_REFUND_SETTLES_AFTER_SECONDS, key: `settle:${record.provider}:${record.reference}` },
    );
  } catch (error) {
    // The refund still settles at the service's next status request.
    logger.error("sandbox refund settlement not queued", { provider: record.provider, reference: record.reference, error });
  }
}

/** A pending refund succeeds, and its callback is queued; any other record is returned as it is. */
export async function settleSandboxRefund(db: Db, provider: string, reference: string): Promise<SandboxRecord | undefined> {
  const found = await findRecordByReference(db, provider, reference);
  if (!found || found.operation !== REFUND_OPERATION || found.status !== "pending") return found;
  const settled = (await updateRecord(db, provider, reference, { status: "succeeded", details: { settledLater: true } })) ?? found;
  await queueSandboxCallback(db, settled);
  return settled;
}

/**
 * A refund of this account, found by its key or its reference, as it is now: a pending refund
 * settles (succeeds) when it is asked about, if its settlement has not come first.
 */
export async function readSandboxRefund(
  db: Db,
  provider: string,
  account: SandboxAccount,
  by: { refundKey?: string; reference?: string },
): Promise<SandboxRecord | undefined> {
  const found = by.refundKey
    ? await findRecordByIdempotencyKey(db, provider, account.connectionId, by.refundKey)
    : by.reference
      ? await findRecordByReference(db, provider, by.reference)
      : undefined;
  if (!found || found.operation !== REFUND_OPERATION || found.connectionId !== account.connectionId) return undefined;
  if (found.status !== "pending") return found;
  return (await settleSandboxRefund(db, provider, found.reference)) ?? found;
}

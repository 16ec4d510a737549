import "server-only";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import type { RoutingReason } from "@/lib/db/enums";
import { invoiceAttempts, invoices, payoutParts } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { attemptIsOpenSql } from "@/lib/invoices/lifecycle";
import type { PayoutPartOutcome, ProviderOutcome } from "@/lib/providers/kit/adapter";
import type { Exchange } from "@/lib/providers/kit/provider-http";
import { noteAttemptOutcome, windowMark } from "@/lib/analytics/connection-health";
import { countRoutingOutcome } from "@/lib/routing/success-stats";
import { attemptIsSettled, putInAttempt, takeOutAttempt } from "@/lib/analytics/rollups";
import { queueEventDelivery } from "@/lib/invoices/status";
import { threeDsAfter } from "@/lib/invoices/three-ds";
import { recordAttemptOutcome } from "@/lib/metrics/record";

export type AttemptRow = typeof invoiceAttempts.$inferSelect;
export type PayoutPartRow = typeof payoutParts.$inferSelect;

/**
 * Starts one attempt: the row (in flight) and the invoice's attempt count and current connection
 * in one transaction. The attempt id is the provider's idempotency key, so one attempt can never
 * charge or pay out twice.
 */
export async function startAttempt(
  db: Db,
  input: { invoiceId: string; seq: number; connectionId: string; reason: RoutingReason; threeDsRequested?: boolean },
): Promise<AttemptRow> {
  const id = newId("att");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(invoiceAttempts)
      .values({
        id,
        invoiceId: input.invoiceId,
        seq: input.seq,
        connectionId: input.connectionId,
        reason: input.reason,
        status: "in_flight",
        idempotencyKey: id,
        ...(input.threeDsRequested ? { threeDs: "requested" as const } : {}),
      })
      .returning();
    const moved = input.reason === "cascaded" ? { connectionId: input.connectionId, routingReason: input.reason } : {};
    await tx
      .update(invoices)
      .set({ attemptsCount: input.seq, ...moved })
      .where(eq(invoices.id, input.invoiceId));
    return row!;
  });
}

const ATTEMPT_STATUS_OF: Record<ProviderOutcome["kind"], AttemptRow["status"]> = {
  succeeded: "succeeded",
  pending: "pending",
  declined: "declined",
  soft_failed: "soft_failed",
  unknown: "unknown",
};

/** A payout the merchant canceled before any of it was paid (lib/processing/cancel-payout.ts): not a decline by the provider. */
export type MerchantCanceled = { kind: "declined"; resolution: "canceled"; providerReference?: string; message: string };

/**
 * Writes what the provider said onto the attempt and appends this call's exchanges (already
 * redacted). Compare-and-set on the status the caller read: when another writer (a callback, a
 * second status request) settled the attempt first, nothing is written and undefined comes back,
 * so a later answer never rewrites a settled attempt.
 */
export async function recordOutcome(
  db: Db,
  attempt: AttemptRow,
  outcome: ProviderOutcome | MerchantCanceled,
  exchanges: readonly Exchange[],
  options: { latencyMs?: number } = {},
): Promise<AttemptRow | undefined> {
  const finished = outcome.kind !== "pending";
  const status = ATTEMPT_STATUS_OF[outcome.kind];
  const resolution = outcome.kind === "succeeded" ? "ok" : outcome.kind === "declined" || outcome.kind === "soft_failed" ? outcome.resolution : null;
  const message = "message" in outcome ? outcome.message : null;
  const result = await db.transaction(async (tx) => {
    // A settled attempt being rewritten (a payout cancel) takes its overview contribution out first, under its row lock.
    if (attemptIsSettled(attempt.status)) {
      const [locked] = await tx.select({ status: invoiceAttempts.status }).from(invoiceAttempts).where(eq(invoiceAttempts.id, attempt.id)).for("update");
      if (locked?.status !== attempt.status) return undefined;
      await takeOutAttempt(tx, attempt.id);
    }
    const [row] = await tx
      .update(invoiceAttempts)
      .set({
        status,
        resolution,
        providerReference: outcome.providerReference ?? attempt.providerReference,
        processedAmountMinor: outcome.kind === "succeeded" ? outcome.processedAmountMinor : null,
        feeMinor: outcome.kind === "succeeded" ? (outcome.feeMinor ?? null) : null,
        // A status request that says "still waiting" without the page keeps the page the customer was sent to.
        redirectUrl: outcome.kind === "pending" ? (outcome.redirectUrl ?? attempt.redirectUrl ?? null) : null,
        threeDs: threeDsAfter(attempt.threeDs, outcome),
        message,
        exchanges: sql`${invoiceAttempts.exchanges} || ${JSON.stringify(exchanges)}::jsonb`,
        finishedAt: finished ? sql`now()` : null,
        ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}),
      })
      .where(and(eq(invoiceAttempts.id, attempt.id), eq(invoiceAttempts.status, attempt.status)))
      .returning();
    if (!row) return undefined;
    if (attemptIsSettled(row.status)) await putInAttempt(tx, row.id);
    const event = await noteAttemptOutcome(tx, row.connectionId, { from: attempt.status, to: row.status, resolution: row.resolution, message: row.message });
    // Success-rate ordering counts what connection health counts, per service (lib/routing/success.ts).
    const mark = windowMark(attempt.status, row.status, row.resolution);
    if (mark) await countRoutingOutcome(tx, { invoiceId: row.invoiceId, connectionId: row.connectionId, mark });
    return { row, event };
  });
  if (!result) return undefined;
  const { row, event } = result;
  // Attempts and declines by reason for the metrics: counted once per written status change.
  recordAttemptOutcome(row.status, row.resolution);
  if (event) await queueEventDelivery(db, null, event);
  if ((outcome.kind === "succeeded" || outcome.kind === "pending") && outcome.parts?.length) await savePayoutParts(db, row, outcome.parts);
  return row;
}

/** One attempt of one invoice, or undefined. */
export async function findAttemptOf(db: Db, invoiceId: string, attemptId: string): Promise<AttemptRow | undefined> {
  const [row] = await db
    .select()
    .from(invoiceAttempts)
    .where(and(eq(invoiceAttempts.id, attemptId), eq(invoiceAttempts.invoiceId, invoiceId)))
    .limit(1);
  return row;
}

/** A status request may report parts again: each part is written once per attempt and seq. */
async function savePayoutParts(db: Db, attempt: AttemptRow, parts: readonly PayoutPartOutcome[]) {
  for (const [index, part] of parts.entries()) {
    await db
      .insert(payoutParts)
      .values({
        id: newId("po"),
        invoiceId: attempt.invoiceId,
        attemptId: attempt.id,
        seq: index + 1,
        amountMinor: part.amountMinor,
        status: part.status,
        providerReference: part.providerReference,
      })
      .onConflictDoUpdate({
        target: [payoutParts.attemptId, payoutParts.seq],
        set: { status: part.status, providerReference: part.providerReference, updatedAt: sql`now()` },
      });
  }
}

/** Oldest first: the invoice page's timeline and the attempts endpoint. */
export async function listAttempts(db: Db, invoiceId: string): Promise<AttemptRow[]> {
  return db.select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, invoiceId)).orderBy(asc(invoiceAttempts.seq));
}

export async function listPayoutParts(db: Db, invoiceId: string): Promise<PayoutPartRow[]> {
  return db.select().from(payoutParts).where(eq(payoutParts.invoiceId, invoiceId)).orderBy(asc(payoutParts.createdAt), asc(payoutParts.seq));
}

/** The attempt waiting on the customer (3-D Secure) or a status request, newest first. */
export async function findOpenAttempt(db: Db, invoiceId: string): Promise<AttemptRow | undefined> {
  const [row] = await db
    .select()
    .from(invoiceAttempts)
    .where(and(eq(invoiceAttempts.invoiceId, invoiceId), attemptIsOpenSql))
    .orderBy(desc(invoiceAttempts.seq))
    .limit(1);
  return row;
}

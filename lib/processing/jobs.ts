import "server-only";
import type { Db } from "@/lib/db/client";
import { DEFAULT_ATTEMPTS_LIMIT } from "@/lib/invoices/contract/field-schemas";
import { enqueue, getBoss, jobsSchema } from "@/lib/jobs/queue";
import { reconcileDelaySeconds } from "@/lib/jobs/names";
import type { JobHandler, JobSweep } from "@/lib/jobs/registry";
import { processPayout, ProcessingRefusedError } from "./engine";
import { findAttemptOf } from "./attempts";
import { expireInvoiceById } from "./expiry";
import { isPastReconcileDeadline, reconcileAt, scheduleReconcile } from "./follow-ups";
import { attemptsExhausted } from "./payable";
import { giveUpReconciling, reconcileAttempt } from "./reconcile";
import { recoverInterruptedRequests } from "./recover";
import { readInvoice } from "./request";
import { nextTargets } from "./targets";

/**
 * The processing jobs (issue 11), wired in lib/jobs/handlers.ts. Each reads the state as it is when
 * it runs and does nothing when its work is done or no longer wanted, so a job that runs twice (or
 * late) changes nothing the second time. A database error throws, and the queue retries.
 */

/**
 * Status request number `step` for an open attempt. Still open afterwards: the next request is
 * queued, unless the invoice's lifetime is over, in which case reconciliation gives up
 * (giveUpReconciling says how). Never a new attempt.
 */
export const reconcileJob: JobHandler<"invoice-reconcile"> = async (db, { invoiceId, attemptId, step }) => {
  const result = await reconcileAttempt(db, { invoiceId, attemptId }, { reason: `status request ${step + 1} (scheduled)` });
  if (result.kind !== "still_open") return;
  if (isPastReconcileDeadline(result.invoice, result.attempt)) {
    await giveUpReconciling(db, result.invoice, result.attempt);
    return;
  }
  await scheduleReconcile(db, result.invoice, result.attempt, step + 1);
};

/** At the invoice's expires_at: an invoice still unpaid expires; anything else is left alone. */
export const expireJob: JobHandler<"invoice-expire"> = async (db, { invoiceId }) => {
  await expireInvoiceById(db, invoiceId, "lifetime ended");
};

/**
 * A payout's next attempt after a status request or a callback settled its latest attempt as a soft
 * failure: the connections after the failed one, with the stored masked card number (as the engine
 * sends a payout without the full number). Only while that attempt is still the invoice's latest
 * and the invoice is still process_failed with attempts left.
 */
export const payoutProcessJob: JobHandler<"payout-process"> = async (db, { invoiceId, afterAttemptId }) => {
  const invoice = await readInvoice(db, invoiceId);
  if (!invoice || invoice.direction !== "payout" || invoice.status !== "process_failed" || attemptsExhausted(invoice)) return;
  const attempt = await findAttemptOf(db, invoiceId, afterAttemptId);
  if (!attempt || attempt.seq !== invoice.attemptsCount || attempt.status !== "soft_failed") return;
  if ((await nextTargets(db, invoice, attempt.connectionId)).length === 0) return;
  try {
    await processPayout(db, invoiceId, { afterConnectionId: attempt.connectionId });
  } catch (error) {
    // Refused (expired, taken by another request meanwhile): nothing to retry.
    if (!(error instanceof ProcessingRefusedError)) throw error;
  }
};

const SWEEP_BATCH = 200;

type SweepScope = { merchantId?: string; limit?: number };

async function sweepQuery<T>(db: Db, text: string, scope: SweepScope, values: unknown[] = []): Promise<T[]> {
  const boss = await getBoss(db);
  const params = [...values, scope.limit ?? SWEEP_BATCH, scope.merchantId ?? null];
  const limit = `$${values.length + 1}`;
  const merchant = `$${values.length + 2}::text`;
  const sql = text.replaceAll(":limit", limit).replaceAll(":merchant", merchant);
  const { rows } = await boss.getDb().executeSql(sql, params);
  return rows as T[];
}

/**
 * Invoices past their expires_at that are still unpaid, whose expire job was lost (queued before a
 * crash that lost it, or created before expiry existed): expired now. `scope` narrows it (tests).
 */
export async function expireOverdueInvoices(db: Db, scope: SweepScope = {}): Promise<number> {
  const rows = await sweepQuery<{ id: string }>(
    db,
    `select i.id from invoices i
      where i.expires_at <= now() and (:merchant is null or i.merchant_id = :merchant)
        and (i.status = 'created'
          or (i.status = 'process_failed' and i.attempts_count < case
                when i.direction = 'payout' and jsonb_typeof(i.options->'attempts_limit') = 'number' then (i.options->>'attempts_limit')::numeric
                else ${DEFAULT_ATTEMPTS_LIMIT} end)
          or (i.status = 'process_pending' and not exists (
                select 1 from invoice_attempts a where a.invoice_id = i.id and a.status in ('pending', 'unknown', 'in_flight'))))
      order by i.expires_at limit :limit`,
    scope,
  );
  let expired = 0;
  for (const { id } of rows) {
    const invoice = await expireInvoiceById(db, id, "lifetime ended (sweep)");
    if (invoice?.status === "expired") expired += 1;
  }
  return expired;
}

/** The first step of the schedule still ahead of now for an attempt started at `startedAt`. */
export function nextStepFrom(startedAt: Date, now = new Date()): number {
  const elapsed = (now.getTime() - startedAt.getTime()) / 1000;
  let step = 0;
  while (reconcileDelaySeconds(step) <= elapsed && step < 24 * 31 + 4) step += 1;
  return step;
}

/**
 * Waiting invoices (pending, unknown) with no status request queued (its job lost, or settled
 * before reconciliation existed): the next request of the schedule is queued, or one at once when
 * the lifetime is over, which then gives up. Invoices changed in the last `graceSeconds` are left to
 * the request that is settling them.
 */
export async function requeueReconciliation(db: Db, scope: SweepScope & { graceSeconds?: number } = {}): Promise<number> {
  const rows = await sweepQuery<{ invoice_id: string; attempt_id: string; attempt_status: "pending" | "unknown"; started_at: string | Date }>(
    db,
    `select i.id as invoice_id, a.id as attempt_id, a.status as attempt_status, a.started_at from invoices i
      join lateral (select id, status, started_at from invoice_attempts where invoice_id = i.id order by seq desc limit 1) a on true
      where i.status in ('process_pending', 'process_error') and i.resolution is distinct from 'unable_to_reconcile'
        and a.status in ('pending', 'unknown') and (:merchant is null or i.merchant_id = :merchant)
        and i.updated_at <= now() - make_interval(secs => $1::double precision)
        and not exists (select 1 from ${jobsSchema()}.job j
          where j.name = 'invoice-reconcile' and j.data->>'invoiceId' = i.id and j.state in ('created', 'retry', 'active'))
      order by i.updated_at limit :limit`,
    scope,
    [scope.graceSeconds ?? 60],
  );
  let queued = 0;
  for (const row of rows) {
    const invoice = await readInvoice(db, row.invoice_id);
    if (!invoice) continue;
    const attempt = { id: row.attempt_id, status: row.attempt_status, startedAt: new Date(row.started_at) };
    const step = nextStepFrom(attempt.startedAt);
    // Its own key: a completed job of the same step may still be on record and would swallow the plain key.
    const id = await enqueue(
      db,
      "invoice-reconcile",
      { invoiceId: invoice.id, attemptId: attempt.id, step },
      { startAfter: reconcileAt(invoice, attempt, step), key: `${attempt.id}:${step}:sweep` },
    );
    if (id) queued += 1;
  }
  return queued;
}

/** Run by every worker at start and every minute (lib/jobs/handlers.ts). */
export const processingSweeps: JobSweep[] = [
  { name: "expire-overdue-invoices", run: (db) => expireOverdueInvoices(db) },
  { name: "requeue-reconciliation", run: (db) => requeueReconciliation(db) },
  { name: "recover-interrupted-requests", run: (db) => recoverInterruptedRequests(db) },
];

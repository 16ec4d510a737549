import "server-only";
import { and, asc, eq, lte, not, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoiceAttempts, invoices } from "@/lib/db/schema";
import { attemptAwaitsAnswerSql, reconciliationGoesOnSql, waitsForStatusSql } from "@/lib/invoices/lifecycle";
import { readInvoice } from "@/lib/invoices/store";
import { enqueue, queuedJobExistsSql } from "@/lib/jobs/queue";
import { defineTask, type JobSweep } from "@/lib/jobs/task";
import { nextStepFrom } from "@/lib/retry-schedules";
import { isPastReconcileDeadline, reconcileAt, scheduleReconcile } from "../follow-ups";
import { giveUpReconciling, reconcileAttempt } from "../reconcile";
import { SWEEP_BATCH, type SweepScope } from "../sweep-scope";

/**
 * `invoice-reconcile`: status request number `step` for an open attempt. Still open afterwards: the
 * next request is queued, unless the invoice's lifetime is over, in which case reconciliation gives
 * up (giveUpReconciling says how). Never a new attempt. An attempt or invoice that no longer waits
 * is left alone, so a job that runs twice changes nothing the second time.
 */
export const invoiceReconcileTask = defineTask("invoice-reconcile", async (db, { invoiceId, attemptId, step }) => {
  const result = await reconcileAttempt(db, { invoiceId, attemptId }, { reason: `status request ${step + 1} (scheduled)` });
  if (result.kind !== "still_open") return;
  if (isPastReconcileDeadline(result.invoice, result.attempt)) {
    await giveUpReconciling(db, result.invoice, result.attempt);
    return;
  }
  await scheduleReconcile(db, result.invoice, result.attempt, step + 1);
});

/** The invoice's latest attempt: the one whose seq is the highest of the invoice's. */
const isLatestAttempt = sql`${invoiceAttempts.seq} = (select max(x.seq) from ${invoiceAttempts} x where x.invoice_id = ${invoices.id})`;

/**
 * Waiting invoices (pending, unknown) with no status request queued (its job lost, or settled
 * before reconciliation existed): the next request of the schedule is queued, or one at once when
 * the lifetime is over, which then gives up. Invoices changed in the last `graceSeconds` are left to
 * the request that is settling them.
 */
export async function requeueReconciliation(db: Db, scope: SweepScope & { graceSeconds?: number } = {}): Promise<number> {
  const rows = await db
    .select({ invoiceId: invoices.id, attemptId: invoiceAttempts.id, attemptStatus: invoiceAttempts.status, startedAt: invoiceAttempts.startedAt })
    .from(invoices)
    .innerJoin(invoiceAttempts, and(eq(invoiceAttempts.invoiceId, invoices.id), isLatestAttempt))
    .where(
      and(
        waitsForStatusSql,
        reconciliationGoesOnSql,
        attemptAwaitsAnswerSql,
        scope.merchantId ? eq(invoices.merchantId, scope.merchantId) : undefined,
        lte(invoices.updatedAt, sql`now() - make_interval(secs => ${scope.graceSeconds ?? 60}::double precision)`),
        not(queuedJobExistsSql("invoice-reconcile", invoices.id)),
      ),
    )
    .orderBy(asc(invoices.updatedAt))
    .limit(scope.limit ?? SWEEP_BATCH);
  let queued = 0;
  for (const row of rows) {
    const invoice = await readInvoice(db, row.invoiceId);
    if (!invoice) continue;
    const attempt = { id: row.attemptId, status: row.attemptStatus, startedAt: new Date(row.startedAt) };
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

export const requeueReconciliationSweep: JobSweep = { name: "requeue-reconciliation", run: (db) => requeueReconciliation(db) };

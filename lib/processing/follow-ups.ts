import "server-only";
import type { Db } from "@/lib/db/client";
import { attemptAwaitsAnswer, attemptsExhausted, reconciliationGaveUp, waitsForStatus } from "@/lib/invoices/lifecycle";
import type { InvoiceRow } from "@/lib/invoices/store";
import { enqueue } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import { reconcileDelaySeconds, THREE_DS_SESSION_SECONDS } from "@/lib/retry-schedules";
import { findOpenAttempt, type AttemptRow } from "./attempts";
import { nextTargets } from "./targets";

/**
 * What is queued after an outcome is settled. Queuing never fails the payment or the callback that
 * settled it: the change is committed, and the processing sweep queues whatever a failure here left
 * unqueued.
 */

type ScheduledAttempt = Pick<AttemptRow, "startedAt" | "status">;

/**
 * Until when an open attempt is asked about: the invoice's expires_at, or for an attempt waiting on
 * the customer (pending) the end of its 3-D Secure session if that is later.
 */
export function reconcileDeadline(invoice: Pick<InvoiceRow, "expiresAt">, attempt: ScheduledAttempt): Date {
  const lifetime = invoice.expiresAt.getTime();
  if (attempt.status !== "pending") return new Date(lifetime);
  return new Date(Math.max(lifetime, attempt.startedAt.getTime() + THREE_DS_SESSION_SECONDS * 1000));
}

export function isPastReconcileDeadline(invoice: Pick<InvoiceRow, "expiresAt">, attempt: ScheduledAttempt, now = new Date()): boolean {
  return reconcileDeadline(invoice, attempt).getTime() <= now.getTime();
}

/**
 * When status request number `step` runs: `reconcileDelaySeconds(step)` after the attempt started
 * (10 s, 30 s, 2 min, 10 min, then hourly), but a later request never after the deadline
 * (reconcileDeadline), so the request that decides whether to give up runs when the deadline comes,
 * not up to an hour later. The first one always waits its 10 s, so even an attempt made at the last
 * second of the lifetime gets one status request before anything is given up.
 */
export function reconcileAt(invoice: Pick<InvoiceRow, "expiresAt">, attempt: ScheduledAttempt, step: number, now = new Date()): Date {
  const due = attempt.startedAt.getTime() + reconcileDelaySeconds(step) * 1000;
  const capped = step === 0 ? due : Math.min(due, reconcileDeadline(invoice, attempt).getTime());
  return new Date(Math.max(capped, now.getTime()));
}

/** Queues status request number `step` for the attempt; the key makes queuing it twice a no-op. */
export async function scheduleReconcile(
  db: Db,
  invoice: Pick<InvoiceRow, "id" | "expiresAt">,
  attempt: Pick<AttemptRow, "id" | "startedAt" | "status">,
  step: number,
): Promise<void> {
  await enqueue(
    db,
    "invoice-reconcile",
    { invoiceId: invoice.id, attemptId: attempt.id, step },
    { startAfter: reconcileAt(invoice, attempt, step), key: `${attempt.id}:${step}` },
  );
}

async function safely(what: string, invoiceId: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    logger.error(`${what} not queued`, { invoiceId, error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * After a settle: an invoice left waiting (pending, unknown) gets its first status request. Only
 * the first: each status request queues the next one itself (lib/processing/tasks/invoice-reconcile.ts).
 */
export async function scheduleFollowUps(db: Db, invoice: InvoiceRow): Promise<void> {
  if (!waitsForStatus(invoice.status) || reconciliationGaveUp(invoice)) return;
  await safely("status request", invoice.id, async () => {
    const attempt = await findOpenAttempt(db, invoice.id);
    if (attempt && attemptAwaitsAnswer(attempt.status)) await scheduleReconcile(db, invoice, attempt, 0);
  });
}

/**
 * A payout whose latest attempt a status request or a callback settled as a soft failure cascades
 * to the next connection of the routing order in a job, as the synchronous request does at once.
 * Payments do not: the card is never stored, so the customer tries again on the hosted page.
 */
export async function schedulePayoutCascade(db: Db, invoice: InvoiceRow, attempt: AttemptRow): Promise<boolean> {
  if (invoice.direction !== "payout" || invoice.status !== "process_failed" || attempt.status !== "soft_failed") return false;
  if (attemptsExhausted(invoice) || attempt.seq !== invoice.attemptsCount) return false;
  if ((await nextTargets(db, invoice, attempt.connectionId)).length === 0) return false;
  let queued = false;
  await safely("payout cascade", invoice.id, async () => {
    await enqueue(db, "payout-process", { invoiceId: invoice.id, afterAttemptId: attempt.id }, { key: `${invoice.id}:${attempt.id}` });
    queued = true;
  });
  return queued;
}

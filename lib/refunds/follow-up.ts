import "server-only";
import type { Db } from "@/lib/db/client";
import { enqueue } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import { RECONCILE_HOURLY_SECONDS, RECONCILE_MAX_STEP, reconcileDelaySeconds } from "@/lib/retry-schedules";
import type { RefundRow } from "./store";

/**
 * Status request number `step` for an open refund, on the same schedule as a payment's (10 s, 30 s,
 * 2 min, 10 min, then hourly; lib/retry-schedules.ts), counted from the refund's creation. The key
 * makes queuing it twice a no-op; a failure to queue is left to the sweep.
 */
export async function scheduleRefundFollowUp(
  db: Db,
  refund: Pick<RefundRow, "id" | "invoiceId" | "createdAt">,
  step: number,
  key = `${refund.id}:${step}`,
  options: { now?: boolean } = {},
): Promise<void> {
  // Past the schedule's last step (a month of hourly requests), one an hour from now: never a tight loop.
  const due = options.now
    ? Date.now()
    : step >= RECONCILE_MAX_STEP
      ? Date.now() + RECONCILE_HOURLY_SECONDS * 1000
      : refund.createdAt.getTime() + reconcileDelaySeconds(step) * 1000;
  try {
    await enqueue(db, "refund-reconcile", { refundId: refund.id, invoiceId: refund.invoiceId, step }, { startAfter: new Date(Math.max(due, Date.now())), key });
  } catch (error) {
    logger.error("refund status request not queued", { refundId: refund.id, error: error instanceof Error ? error.message : String(error) });
  }
}

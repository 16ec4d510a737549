import "server-only";
import { and, asc, inArray, lte, not, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { OPEN_REFUND_STATUSES } from "@/lib/db/enums";
import { refunds } from "@/lib/db/schema";
import { queuedJobExistsSql } from "@/lib/jobs/queue";
import { defineTask, type JobSweep } from "@/lib/jobs/task";
import { nextStepFrom, RECONCILE_MAX_STEP, refundSweepGraceSeconds } from "@/lib/retry-schedules";
import { providerTimeoutMs } from "@/lib/providers/kit/timeout";
import { scheduleRefundFollowUp } from "../follow-up";
import { followUpRefund } from "../send";

/** A refund is followed while open, whatever its age: money on its way back is never given up on. */
const MAX_STEP = RECONCILE_MAX_STEP;

/**
 * `refund-reconcile`: status request number `step` for an open refund; still open afterwards, the
 * next one is queued. A refund still `created` (its first call was cut off) is asked about, and
 * sent with the same id if the provider never received it. A settled refund is left alone, so a
 * job that runs twice changes nothing the second time.
 */
export const refundReconcileTask = defineTask("refund-reconcile", async (db, { refundId, step }) => {
  const refund = await followUpRefund(db, refundId, `status request ${step + 1} (scheduled)`);
  if (!refund || !(OPEN_REFUND_STATUSES as readonly string[]).includes(refund.status)) return;
  const next = Math.min(step + 1, MAX_STEP);
  await scheduleRefundFollowUp(db, refund, next, next === MAX_STEP ? `${refund.id}:${next}:${refund.updatedAt.getTime()}` : undefined);
});

/**
 * Open refunds with no status request queued (the server stopped between storing and sending, or
 * the job was lost), left alone for the grace period (lib/retry-schedules.ts): the next request of
 * their schedule is queued.
 */
export async function requeueRefundFollowUps(db: Db, scope: { merchantId?: string; graceSeconds?: number } = {}): Promise<number> {
  const rows = await db
    .select()
    .from(refunds)
    .where(
      and(
        inArray(refunds.status, [...OPEN_REFUND_STATUSES]),
        scope.merchantId ? sql`${refunds.merchantId} = ${scope.merchantId}` : undefined,
        lte(refunds.updatedAt, sql`now() - make_interval(secs => ${scope.graceSeconds ?? refundSweepGraceSeconds(providerTimeoutMs())}::double precision)`),
        not(queuedJobExistsSql("refund-reconcile", refunds.id, "refundId")),
      ),
    )
    .orderBy(asc(refunds.updatedAt))
    .limit(200);
  // A refund still `created` was cut off before its provider call: asked about at once, not on the schedule.
  for (const refund of rows) {
    // Keyed by the refund's last change, so sweeps in several processes queue it once.
    await scheduleRefundFollowUp(db, refund, Math.min(nextStepFrom(refund.createdAt), MAX_STEP), `${refund.id}:sweep:${refund.updatedAt.getTime()}`, {
      now: refund.status === "created",
    });
  }
  return rows.length;
}

export const requeueRefundFollowUpsSweep: JobSweep = { name: "requeue-refund-follow-ups", run: (db) => requeueRefundFollowUps(db) };

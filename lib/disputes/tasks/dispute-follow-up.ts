import "server-only";
import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { OPEN_DISPUTE_STATUSES } from "@/lib/db/enums";
import { disputes } from "@/lib/db/schema";
import { enqueue } from "@/lib/jobs/queue";
import { defineTask, type JobSweep } from "@/lib/jobs/task";
import { logger } from "@/lib/logger";
import { mailOwners } from "../apply-report";
import { askAboutDispute } from "../respond";
import { isOpenDispute, readDispute } from "../store";

/**
 * What a lost callback leaves open: disputes whose next word is awaited get a dispute status
 * request — under review (the provider decides), sent without an answer (Submit or Accept met a
 * timeout), or past their evidence deadline unanswered (the provider closes them lost). One request
 * per dispute per FOLLOW_UP_EVERY_MS, whatever the number of worker processes: the job's id is the
 * dispute and the period, so a second process's sweep queues nothing new. And the owners' reminder
 * three days before the deadline, once: reminder_sent_at is set by a compare-and-set before the mail.
 */

const FOLLOW_UP_EVERY_MS = 15 * 60_000;
const REMINDER_BEFORE_MS = 3 * 24 * 60 * 60_000;

export const disputeFollowUpTask = defineTask("dispute-follow-up", async (db, { disputeId }) => {
  const dispute = await readDispute(db, disputeId);
  if (!dispute || !isOpenDispute(dispute.status)) return;
  const outcome = await askAboutDispute(db, dispute);
  if (outcome.kind !== "found") logger.warn("dispute status request without an answer", { disputeId, kind: outcome.kind, message: outcome.message });
});

/** Queues a status request for each open dispute whose next word is awaited; returns how many were due. */
export async function queueDisputeFollowUps(db: Db, now = new Date()): Promise<number> {
  const rows = await db
    .select({ id: disputes.id })
    .from(disputes)
    .where(
      and(
        inArray(disputes.status, [...OPEN_DISPUTE_STATUSES]),
        or(eq(disputes.status, "under_review"), isNotNull(disputes.submittedAt), isNotNull(disputes.acceptedAt), lte(disputes.evidenceDueBy, now)),
      ),
    )
    .orderBy(asc(disputes.updatedAt))
    .limit(200);
  const period = Math.floor(now.getTime() / FOLLOW_UP_EVERY_MS);
  for (const row of rows) await enqueue(db, "dispute-follow-up", { disputeId: row.id }, { key: `${row.id}:${period}` });
  return rows.length;
}

/** Mails the owners of each dispute whose deadline is within three days and still unanswered, once per dispute. */
export async function sendDisputeReminders(db: Db, now = new Date()): Promise<number> {
  const due = await db
    .update(disputes)
    .set({ reminderSentAt: sql`now()` })
    .where(
      and(
        eq(disputes.status, "needs_response"),
        isNull(disputes.reminderSentAt),
        isNull(disputes.submittedAt),
        isNull(disputes.acceptedAt),
        lte(disputes.evidenceDueBy, new Date(now.getTime() + REMINDER_BEFORE_MS)),
        sql`${disputes.evidenceDueBy} > ${now.toISOString()}::timestamptz`,
      ),
    )
    .returning();
  for (const dispute of due) await mailOwners(db, dispute, "deadline");
  return due.length;
}

export const disputeFollowUpsSweep: JobSweep = { name: "dispute-follow-ups", run: (db) => queueDisputeFollowUps(db) };
export const disputeRemindersSweep: JobSweep = { name: "dispute-reminders", run: (db) => sendDisputeReminders(db) };

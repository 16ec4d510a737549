import { inArray, lt } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { requestLog } from "@/lib/db/schema";
import type { JobSweep } from "@/lib/jobs/task";

const DEFAULT_DAYS = 30;
const DELETE_BATCH = 5000;

/** REQUEST_LOG_DAYS: how many days the request log keeps a request (1 to 3650; 30 unless set). */
export function requestLogDays(env: Record<string, string | undefined> = process.env): number {
  const text = env.REQUEST_LOG_DAYS?.trim();
  if (!text) return DEFAULT_DAYS;
  const days = Number(text);
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new Error(`REQUEST_LOG_DAYS must be a whole number of days from 1 to 3650, got "${text}"`);
  return days;
}

/** Deletes the requests older than REQUEST_LOG_DAYS, a batch at a time (a long statement would hold up the writes); how many went. */
export async function sweepRequestLog(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - requestLogDays() * 86_400_000);
  let deleted = 0;
  for (;;) {
    const old = db.select({ id: requestLog.id }).from(requestLog).where(lt(requestLog.createdAt, before)).limit(DELETE_BATCH);
    const gone = await db.delete(requestLog).where(inArray(requestLog.id, old)).returning({ id: requestLog.id });
    deleted += gone.length;
    if (gone.length < DELETE_BATCH) return deleted;
  }
}

/** Run by the workers every hour (lib/server-jobs.ts). */
export const sweepRequestLogSweep: JobSweep = { name: "sweep-request-log", run: (db) => sweepRequestLog(db), everyMs: 3_600_000 };

import type { Db } from "@/lib/db/client";
import type { JobName } from "@/lib/jobs/names";
import { getBoss, jobsSchema, listScheduledJobs, runDueJobs } from "@/lib/jobs/queue";
import { JOB_TASKS } from "@/lib/server-jobs";

/**
 * Jobs in integration tests: nothing polls; a test runs what is due with `runJobs` (what the workers
 * would do on their next polls), and makes scheduled jobs due with `makeJobsDue` (the schedule is
 * kept; only its time is moved to now), instead of waiting minutes.
 */
export function runJobs(db: Db, names?: readonly JobName[]): Promise<number> {
  return runDueJobs(db, JOB_TASKS, names ? { names } : {});
}

/** Moves queued jobs (optionally only those of one invoice and/or name) to now; returns how many. */
export async function makeJobsDue(db: Db, filter: { invoiceId?: string; name?: JobName } = {}): Promise<number> {
  const boss = await getBoss(db);
  const conditions = ["state in ('created', 'retry')"];
  const values: unknown[] = [];
  if (filter.invoiceId) {
    values.push(filter.invoiceId);
    conditions.push(`data->>'invoiceId' = $${values.length}`);
  }
  if (filter.name) {
    values.push(filter.name);
    conditions.push(`name = $${values.length}`);
  }
  values.push(new Date(Date.now() - 1000).toISOString());
  const { rows } = await boss
    .getDb()
    .executeSql(`update ${jobsSchema()}.job set start_after = $${values.length}::timestamptz where ${conditions.join(" and ")} returning id`, values);
  return rows.length;
}

/** Drops the queued (not yet run) jobs of one name: a test starts without what an earlier test left scheduled. */
export async function clearQueuedJobs(db: Db, name: JobName): Promise<void> {
  const boss = await getBoss(db);
  await boss.getDb().executeSql(`delete from ${jobsSchema()}.job where name = $1 and state in ('created', 'retry')`, [name]);
}

/** Runs due jobs, making scheduled ones due, until nothing is left or `rounds` are done. */
export async function runAllJobs(db: Db, filter: { invoiceId?: string; name?: JobName } = {}, rounds = 10): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    await makeJobsDue(db, filter);
    if ((await runJobs(db, filter.name ? [filter.name] : undefined)) === 0) return;
  }
}

export { listScheduledJobs };

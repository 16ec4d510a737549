import "server-only";
import { createHash } from "node:crypto";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import PgBoss from "pg-boss";
import { databaseUrl } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { logger } from "@/lib/logger";
import { JOB_RETRIES } from "@/lib/retry-schedules";
import { checkPayload, JOB_NAMES, type JobName, type JobPayloads } from "./names";
import type { AnyJobTask, JobSweep } from "./task";

/**
 * The job queue: pg-boss 10 everywhere. On PostgreSQL it keeps its own small pool
 * (`DATABASE_URL`), so several app instances share the work; on the embedded default it runs over
 * the process's one PGlite instance through pg-boss's `db` option (ARCHITECTURE.md "Jobs" says why).
 * Jobs live in the database, so a job queued before a kill runs after the restart.
 */

type PGliteLike = {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<{ rows: unknown[] }[]>;
};

/** pg-boss's `db` option over PGlite: parameterised statements go through query, scripts (its migrations, BEGIN…COMMIT) through exec. */
function pgliteExecutor(client: PGliteLike) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
  };
}

/** The schema pg-boss keeps its tables in; tests give each file its own (`JOBS_SCHEMA`). */
export function jobsSchema(): string {
  return process.env.JOBS_SCHEMA || "pgboss";
}

/** Crashes and thrown errors are retried on the jobs' schedule (lib/retry-schedules.ts). */
const QUEUE_OPTIONS = JOB_RETRIES;

/** A whole number of seconds from the environment, at least `min`, else the default. */
function secondsFromEnv(name: string, fallback: number, min: number): number {
  const value = Number(process.env[name]?.trim() || Number.NaN);
  return Number.isInteger(value) && value >= min ? value : fallback;
}

/**
 * A job whose worker died with it (SIGKILL in the middle of the job) stays `active` until it
 * expires, then pg-boss's maintenance (every `maintenanceIntervalSeconds`) retries it. Defaults: 15
 * minutes and 2 minutes; the crash suite lowers both (JOBS_EXPIRE_SECONDS, JOBS_MAINTENANCE_SECONDS)
 * to see such jobs complete within the run. Read when a queue is first created in its schema.
 */
const expireInSeconds = () => secondsFromEnv("JOBS_EXPIRE_SECONDS", QUEUE_OPTIONS.expireInSeconds, 5);
const maintenanceIntervalSeconds = () => secondsFromEnv("JOBS_MAINTENANCE_SECONDS", 120, 1);

const globalForJobs = globalThis as unknown as { __jobs?: WeakMap<Db, Promise<PgBoss>>; __jobWorkers?: { db: Db; boss: PgBoss; timers: NodeJS.Timeout[] } };

async function createBoss(db: Db): Promise<PgBoss> {
  const url = databaseUrl();
  const common = { schema: jobsSchema(), schedule: false, supervise: true, maintenanceIntervalSeconds: maintenanceIntervalSeconds() };
  const boss = url
    ? new PgBoss({ ...common, connectionString: url, max: 4 })
    : new PgBoss({ ...common, db: pgliteExecutor((db as unknown as { $client: PGliteLike }).$client) });
  boss.on("error", (error) => logger.error("job queue error", { error: error instanceof Error ? error.message : String(error) }));
  await boss.start();
  const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
  for (const name of JOB_NAMES) if (!existing.has(name)) await boss.createQueue(name, { name, ...QUEUE_OPTIONS, expireInSeconds: expireInSeconds() });
  return boss;
}

/** The queue bound to this database (one per process for the app's database; tests get one per test database). */
export function getBoss(db: Db): Promise<PgBoss> {
  const map = (globalForJobs.__jobs ??= new WeakMap());
  let boss = map.get(db);
  if (!boss) {
    boss = createBoss(db);
    boss.catch(() => map.delete(db));
    map.set(db, boss);
  }
  return boss;
}

/** A stable job id (a UUID made from the key): queuing the same key twice queues one job. */
export function jobIdFor(name: JobName, key: string): string {
  const hex = createHash("sha256").update(`${name}\u0000${key}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export type EnqueueOptions = {
  /** When to run: a Date, or seconds from now. Default: at once. */
  startAfter?: Date | number;
  /** Makes the job unique: the same name and key queue one job, however often they are sent. */
  key?: string;
};

/** Queues a job (its payload checked against the job's schema); returns its id, or null when a job with the same key is already queued. */
export async function enqueue<N extends JobName>(db: Db, name: N, data: JobPayloads[N], options: EnqueueOptions = {}): Promise<string | null> {
  const payload = checkPayload(name, data);
  const boss = await getBoss(db);
  // "At once" is a second in the past: pg-boss takes a job when start_after < now(), and PGlite's
  // clock can read the same millisecond for the insert and the next fetch, so the job would wait a poll.
  const startAfter =
    typeof options.startAfter === "number" ? new Date(Date.now() + options.startAfter * 1000) : (options.startAfter ?? new Date(Date.now() - 1000));
  return boss.send(name, payload as object, {
    startAfter,
    ...(options.key ? { id: jobIdFor(name, options.key) } : {}),
  });
}

type FetchedJob = { id: string; name: string; data: unknown; retryCount?: number };

/** The tasks a process runs, by job name. */
type TaskMap = ReadonlyMap<JobName, AnyJobTask>;

function taskMap(tasks: readonly AnyJobTask[]): TaskMap {
  return new Map(tasks.map((task) => [task.name, task]));
}

/** Checks the payload against the task's schema, then hands it to the task's handler. */
async function runOne(db: Db, tasks: TaskMap, name: JobName, job: FetchedJob): Promise<void> {
  const task = tasks.get(name);
  if (!task) throw new Error(`no task handles the job ${name}`);
  const handler = task.handler as (db: Db, data: unknown, job: { id: string; name: JobName; retryCount: number }) => Promise<void>;
  await handler(db, task.schema.parse(job.data), { id: job.id, name, retryCount: job.retryCount ?? 0 });
}

/** Jobs a worker takes per poll of its queue. */
const WORKER_BATCH = 10;

/** Runs one job and records its end: completed, or failed (retried with backoff while retries are left). */
async function runAndSettle(boss: PgBoss, db: Db, tasks: TaskMap, name: JobName, job: FetchedJob): Promise<void> {
  try {
    await runOne(db, tasks, name, job);
    await boss.complete(name, job.id);
  } catch (error) {
    await boss.fail(name, job.id, { message: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * Starts the workers of this process: each queue is polled every second (at once again after a full
 * batch) and its jobs are handed to their task one at a time; a handler that throws is retried
 * with backoff (QUEUE_OPTIONS). `JOBS_WORKERS=off` leaves a process without workers (it still
 * queues). The tasks and sweeps come from the process's composition root (lib/server-jobs.ts).
 */
export async function startJobWorkers(db: Db, taskList: readonly AnyJobTask[], sweeps: readonly JobSweep[] = []): Promise<void> {
  if (process.env.JOBS_WORKERS === "off" || globalForJobs.__jobWorkers) return;
  const tasks = taskMap(taskList);
  const boss = await getBoss(db);
  const runSweep = async (sweep: JobSweep) => {
    try {
      const count = await sweep.run(db);
      if (count > 0) logger.info("job sweep", { sweep: sweep.name, count });
    } catch (error) {
      logger.error("job sweep failed", { sweep: sweep.name, error: error instanceof Error ? error.message : String(error) });
    }
  };
  const runSweeps = async () => {
    for (const sweep of sweeps) await runSweep(sweep);
  };
  // One timer per sweep, each waiting for its last run to end before the next (a slow sweep never
  // runs twice at once in one process; several processes may sweep together, and every sweep's
  // writes are compare-and-set).
  const timers = sweeps.map((sweep) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      void runSweep(sweep).finally(() => (running = false));
    }, sweep.everyMs ?? 60_000);
    timer.unref();
    return timer;
  });
  globalForJobs.__jobWorkers = { db, boss, timers };
  for (const name of JOB_NAMES) {
    // Up to WORKER_BATCH jobs per poll, one after the other, each completed or failed on its own: with
    // one job per poll a queue ran at most one job a second, and a steady load of payouts (two
    // webhook deliveries each) outgrew it (tests/reliability/crashes.test.ts).
    await boss.work(name, { pollingIntervalSeconds: 1, batchSize: WORKER_BATCH }, async (jobs) => {
      for (const job of jobs) await runAndSettle(boss, db, tasks, name, job as FetchedJob);
    });
  }
  await runSweeps();
  logger.info("job workers started", { queues: JOB_NAMES.length, schema: jobsSchema() });
}

/** Whether this process runs job workers: `off` (JOBS_WORKERS=off), `running`, or `not_started` (starting, stopped, or failed). */
export function jobWorkersState(): "off" | "running" | "not_started" {
  if (process.env.JOBS_WORKERS === "off") return "off";
  return globalForJobs.__jobWorkers ? "running" : "not_started";
}

/** Stops this process's queue: workers finish the job in hand (up to `timeoutMs`), nothing new is taken. */
export async function stopJobs(db: Db, timeoutMs = 5_000): Promise<void> {
  const map = globalForJobs.__jobs;
  const boss = map?.get(db);
  map?.delete(db);
  if (globalForJobs.__jobWorkers?.db === db) {
    for (const timer of globalForJobs.__jobWorkers.timers) clearInterval(timer);
    globalForJobs.__jobWorkers = undefined;
  }
  if (boss) await (await boss).stop({ graceful: true, timeout: timeoutMs, wait: true });
}

/**
 * Runs every job that is due now, in this call, until none is left (or `limit` jobs ran): what the
 * workers would do on their next polls. Used by tests and by "Check status now"-style callers that
 * must not wait for a poll. Failures are recorded on the job (retried later), never thrown.
 */
export async function runDueJobs(db: Db, taskList: readonly AnyJobTask[], options: { names?: readonly JobName[]; limit?: number } = {}): Promise<number> {
  const tasks = taskMap(taskList);
  const boss = await getBoss(db);
  const names = options.names ?? JOB_NAMES;
  const limit = options.limit ?? 500;
  let ran = 0;
  for (let round = 0; ran < limit; round += 1) {
    let found = 0;
    for (const name of names) {
      const jobs = (await boss.fetch(name, { batchSize: 10 })) as FetchedJob[] | null;
      for (const job of jobs ?? []) {
        found += 1;
        ran += 1;
        await runAndSettle(boss, db, tasks, name, job);
      }
    }
    if (found === 0) break;
  }
  return ran;
}

export type ScheduledJob = { id: string; name: JobName; state: string; startAfter: Date; retryCount: number; data: Record<string, unknown> };

/** pg-boss states of a job that is still to run (or running): not completed, failed or cancelled. */
const QUEUED_JOB_STATES = ["created", "retry", "active"] as const;

const queuedStatesList = QUEUED_JOB_STATES.map((state) => `'${state}'`).join(", ");

/** Whether a job `name` about the invoice `invoiceId` is still to run, as SQL (for a sweep's query). */
export function queuedJobExistsSql(name: JobName, invoiceId: SQLWrapper, field: "invoiceId" | "refundId" = "invoiceId"): SQL {
  return sql`exists (select 1 from ${sql.identifier(jobsSchema())}.job j
    where j.name = ${name} and j.data->>${field} = ${invoiceId} and j.state in (${sql.raw(queuedStatesList)}))`;
}

/** What is queued (not yet done) for one invoice: the invoice page's "Scheduled" section. */
export async function listScheduledJobs(db: Db, invoiceId: string): Promise<ScheduledJob[]> {
  const boss = await getBoss(db);
  const { rows } = await boss.getDb().executeSql(
    `select id, name, state, start_after, retry_count, data from ${jobsSchema()}.job
      where data->>'invoiceId' = $1 and state in (${queuedStatesList}) order by start_after, name`,
    [invoiceId],
  );
  return (rows as { id: string; name: JobName; state: string; start_after: Date | string; retry_count: number; data: Record<string, unknown> }[]).map(
    (row) => ({
      id: row.id,
      name: row.name,
      state: row.state,
      startAfter: new Date(row.start_after),
      retryCount: row.retry_count,
      data: row.data,
    }),
  );
}

/** One queue's jobs still to run, for the metrics (lib/metrics/scrape.ts). */
export type QueueStats = { queue: JobName; created: number; retry: number; active: number; oldestDueSeconds: number };

/**
 * Depth by state of every queue of JOB_NAMES (a queue with nothing waiting reads 0), and how long
 * the oldest due job (created or retry, its start time passed) has waited. One grouped read.
 */
export async function queueStats(db: Db): Promise<QueueStats[]> {
  const boss = await getBoss(db);
  const { rows } = await boss.getDb().executeSql(
    `select name, state, count(*)::int as jobs,
        coalesce(extract(epoch from max(now() - start_after) filter (where state in ('created', 'retry') and start_after <= now())), 0)::float8 as oldest_due
      from ${jobsSchema()}.job where state in (${queuedStatesList}) group by name, state`,
    [],
  );
  const byName = new Map<string, QueueStats>(JOB_NAMES.map((queue) => [queue, { queue, created: 0, retry: 0, active: 0, oldestDueSeconds: 0 }]));
  for (const row of rows as { name: string; state: string; jobs: number | string; oldest_due: number | string }[]) {
    const stats = byName.get(row.name);
    if (!stats || (row.state !== "created" && row.state !== "retry" && row.state !== "active")) continue;
    stats[row.state] = Number(row.jobs);
    stats.oldestDueSeconds = Math.max(stats.oldestDueSeconds, Number(row.oldest_due));
  }
  return [...byName.values()];
}

import "server-only";
import { sql } from "drizzle-orm";
import { isEmbedded } from "@/lib/config";
import { getDb, type Db } from "@/lib/db/client";
import { logger } from "@/lib/logger";

/**
 * Liveness and readiness in one answer (`GET /api/health`, docs/deploy.md "Health"): the process
 * answers at all (liveness), and the two things a request or a job needs do too (readiness): the
 * database takes a trivial query, and the job queue (pg-boss, its own pool on PostgreSQL) answers,
 * with this process's workers started unless it runs without them (`JOBS_WORKERS=off`).
 *
 * What a failed check reports is a fixed word (`timeout`, `failed`, `not_started`): an error's
 * text can name a host, a user or a schema, and this endpoint answers anyone. The error itself
 * goes to the log.
 */
const HEALTH_CHECK_TIMEOUT_MS = 2_000;

type CheckResult = { status: "ok" | "unavailable"; duration_ms: number; error?: "timeout" | "failed" } & Record<string, unknown>;
export type HealthReport = { status: "ok" | "unavailable"; checks: { database: CheckResult; jobs: CheckResult } };

class CheckTimeout extends Error {
  override name = "CheckTimeout";
}

async function timed(name: string, timeoutMs: number, run: () => Promise<Record<string, unknown>>): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(`${name} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const duration = () => Math.round(performance.now() - started);
  try {
    const extra = await Promise.race([run(), deadline]);
    const failed = extra.status === "unavailable";
    return { status: failed ? "unavailable" : "ok", ...extra, duration_ms: duration() } as CheckResult;
  } catch (error) {
    const timedOut = error instanceof CheckTimeout;
    logger.warn("health check failed", { check: name, error });
    return { status: "unavailable", error: timedOut ? "timeout" : "failed", duration_ms: duration() };
  } finally {
    clearTimeout(timer);
  }
}

export type HealthDeps = {
  db?: () => Promise<Db>;
  /** The queue's own connection answers (pg-boss's pool on PostgreSQL). */
  queuePing?: (db: Db) => Promise<void>;
  workers?: () => "off" | "running" | "not_started";
  timeoutMs?: number;
};

async function defaultQueuePing(db: Db): Promise<void> {
  const { getBoss, jobsSchema } = await import("@/lib/jobs/queue");
  const boss = await getBoss(db);
  // Its schema's version row: the queue's pool reaches the database and pg-boss is installed there.
  const schema = jobsSchema().replace(/"/g, '""');
  await boss.getDb().executeSql(`select version from "${schema}".version limit 1`, []);
}

async function defaultWorkers(): Promise<"off" | "running" | "not_started"> {
  const { jobWorkersState } = await import("@/lib/jobs/queue");
  return jobWorkersState();
}

export async function checkHealth(deps: HealthDeps = {}): Promise<HealthReport> {
  const timeoutMs = deps.timeoutMs ?? HEALTH_CHECK_TIMEOUT_MS;
  const openDb = deps.db ?? getDb;
  const database = timed("database", timeoutMs, async () => {
    const db = await openDb();
    await db.execute(sql`select 1`);
    return { kind: isEmbedded() ? "embedded" : "postgresql" };
  });
  const jobs = timed("jobs", timeoutMs, async () => {
    const workers = deps.workers ? deps.workers() : await defaultWorkers();
    const db = await openDb();
    await (deps.queuePing ?? defaultQueuePing)(db);
    return workers === "not_started" ? { status: "unavailable", workers } : { workers };
  });
  const checks = { database: await database, jobs: await jobs };
  const ok = checks.database.status === "ok" && checks.jobs.status === "ok";
  return { status: ok ? "ok" : "unavailable", checks };
}

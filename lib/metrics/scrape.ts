import "server-only";
import { sql } from "drizzle-orm";
import { isEmbedded } from "@/lib/config";
import { getDb, POSTGRES_POOL_SIZE } from "@/lib/db/client";
import { queueStats } from "@/lib/jobs/queue";
import { metrics } from "./registry";

/** How long a scrape waits for its database reads before answering with the figures it has. */
const READ_WAIT_MS = 2_000;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The figures read at scrape time: each queue's depth and oldest due job, and one database round
 * trip. A read that fails or stalls counts in metrics_scrape_errors_total and leaves its gauges as
 * they were: the scrape still answers (the process's own figures matter most when the database is down).
 */
async function readDatabaseFigures(): Promise<void> {
  const m = metrics();
  // postgres.js exposes no count of connections in use: its size here, and saturation shows as the round trip below.
  // The embedded PGlite is one connection in this process.
  m.dbPoolMax.labels(isEmbedded() ? "pglite" : "postgres").set(isEmbedded() ? 1 : POSTGRES_POOL_SIZE);
  let db;
  try {
    db = await within(getDb(), READ_WAIT_MS);
  } catch {
    m.scrapeErrors.labels("database").inc();
    return;
  }
  const started = performance.now();
  const roundTrip = within(db.execute(sql`select 1`), READ_WAIT_MS).then(
    () => m.dbRoundTrip.set((performance.now() - started) / 1000),
    () => m.scrapeErrors.labels("database").inc(),
  );
  const queues = within(queueStats(db), READ_WAIT_MS).then(
    (stats) => {
      for (const queue of stats) {
        m.jobsDepth.labels(queue.queue, "created").set(queue.created);
        m.jobsDepth.labels(queue.queue, "retry").set(queue.retry);
        m.jobsDepth.labels(queue.queue, "active").set(queue.active);
        m.jobsOldestDue.labels(queue.queue).set(queue.oldestDueSeconds);
      }
    },
    () => m.scrapeErrors.labels("jobs").inc(),
  );
  await Promise.all([roundTrip, queues]);
}

/** The Prometheus text exposition of this process's metrics. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  await readDatabaseFigures();
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/**
 * `npm run worker`: a process that runs only the background job workers (lib/server-jobs.ts: reconciliation,
 * expiry, payout cascade, webhook deliveries, sandbox callbacks, credential re-sealing) and the
 * sweeps, against the PostgreSQL at DATABASE_URL, with no HTTP server. App instances then run with
 * JOBS_WORKERS=off (docs/deploy.md). Any number of workers may run: pg-boss hands each job to one.
 *
 * SIGTERM / SIGINT: the workers finish the jobs in hand (up to SHUTDOWN_DRAIN_MS) and take no new
 * one, then the process exits 0; a job cut short is retried after it expires (JOBS_EXPIRE_SECONDS).
 */
import { databaseUrl, metricsSettings } from "../lib/config";
import { closeDb, getDb } from "../lib/db/client";
import { logger } from "../lib/logger";
import { startMetricsListener } from "../server/metrics-listener";

const DRAIN_MS = Number(process.env.SHUTDOWN_DRAIN_MS ?? 25_000);

function cannotStart(message: string): never {
  console.error(`\nCannot start the worker: ${message}\n`);
  process.exit(1);
}

if (!databaseUrl()) {
  cannotStart("npm run worker needs DATABASE_URL (PostgreSQL). On the embedded database the app runs its own workers, and only one process may open DATA_DIR.");
}
if (process.env.JOBS_WORKERS === "off") {
  // JOBS_WORKERS=off is the app instances' setting; a worker process exists to run them.
  logger.warn("worker: JOBS_WORKERS=off is ignored here (it is meant for app instances)");
}
process.env.JOBS_WORKERS = "on";
// Its own metrics (webhook delivery lag, provider calls and attempts of the jobs it runs) on METRICS_PORT, if set.
let metricsListener: ReturnType<typeof startMetricsListener>;
try {
  metricsListener = startMetricsListener(metricsSettings());
} catch (error) {
  cannotStart(error instanceof Error ? error.message : String(error));
}

let stopping = false;
let started = false;

async function start(): Promise<void> {
  try {
    // Fail fast on what a job needs: the credentials key (decrypting connection credentials) and the database.
    const { credentialsKey } = await import("../lib/vault/vault-key");
    credentialsKey();
    const db = await getDb();
    const { startServerJobs } = await import("../lib/server-jobs");
    await startServerJobs(db);
    started = true;
    logger.info("worker started", { pid: process.pid });
    console.log(`Payment Orchestrator worker running (pid ${process.pid})`);
    if (stopping) await stop();
  } catch (error) {
    cannotStart(error instanceof Error ? error.message : String(error));
  }
}

async function stop(): Promise<void> {
  logger.info("worker stopping", { drainMs: DRAIN_MS });
  metricsListener?.close();
  try {
    const db = await getDb();
    const { stopJobs } = await import("../lib/jobs/queue");
    await stopJobs(db, DRAIN_MS);
    await closeDb();
  } catch (error) {
    logger.error("worker: stop failed", { error });
  }
  logger.info("worker stopped");
  process.exit(0);
}

function onSignal(): void {
  if (stopping) return; // npx, tsx and the process group may each pass the same signal on
  stopping = true;
  if (started) void stop(); // else start() stops as soon as it has started
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, onSignal);

await start();

import type { Db } from "@/lib/db/client";
import type { JobName, JobPayloads } from "./names";

/**
 * What runs a job. Handlers must be idempotent: a job may run twice (a worker killed after the
 * work and before the completion was recorded), so each reads the current state and does nothing
 * when its work is already done. A handler that throws is retried with backoff.
 */
export type JobHandler<N extends JobName> = (db: Db, data: JobPayloads[N], job: { id: string; name: N; retryCount: number }) => Promise<void>;

export type JobHandlers = { [N in JobName]: JobHandler<N> };

/** Periodic work of a worker process (every minute and at start): re-queues what a crash may have left unqueued. */
export type JobSweep = { name: string; run: (db: Db) => Promise<number> };

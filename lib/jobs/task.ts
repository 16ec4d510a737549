import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { JOB_PAYLOAD_SCHEMAS, type JobName, type JobPayloads } from "./names";

/**
 * What runs a job. Handlers must be idempotent: a job may run twice (a worker killed after the
 * work and before the completion was recorded), so each reads the current state and does nothing
 * when its work is already done. A handler that throws is retried with backoff.
 */
export type JobHandler<N extends JobName> = (db: Db, data: JobPayloads[N], job: { id: string; name: N; retryCount: number }) => Promise<void>;

/** One job: its name, the schema its payload is checked against (sending and handling), and its handler. */
export type JobTask<N extends JobName> = {
  readonly name: N;
  readonly schema: z.ZodType<JobPayloads[N]>;
  readonly handler: JobHandler<N>;
};

export type AnyJobTask = { [N in JobName]: JobTask<N> }[JobName];

/** A task for the job `name`, with that job's payload schema. */
export function defineTask<N extends JobName>(name: N, handler: JobHandler<N>): JobTask<N> {
  return { name, schema: JOB_PAYLOAD_SCHEMAS[name] as unknown as z.ZodType<JobPayloads[N]>, handler };
}

/**
 * Periodic work of a worker process, at start and then every `everyMs` (a minute unless the sweep
 * says otherwise): work that is due by time rather than queued one job per row (expiry), or
 * re-queuing what a crash may have left unqueued. A sweep never overlaps itself.
 */
export type JobSweep = { name: string; run: (db: Db) => Promise<number>; everyMs?: number };

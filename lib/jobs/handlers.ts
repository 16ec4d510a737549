import "server-only";
import { expireJob, payoutProcessJob, processingSweeps, reconcileJob } from "@/lib/processing/jobs";
import { sandboxCallbackJob } from "@/lib/sandbox/callback-jobs";
import { credentialsResealSweep, resealCredentialsJob } from "@/lib/vault/reseal-job";
import { deliverWebhookJob, webhookSweeps } from "@/lib/webhooks/jobs";
import type { JobHandlers, JobSweep } from "./registry";

/** Every job's handler, by name: the one place a worker learns what to run. */
export const JOB_HANDLERS: JobHandlers = {
  "invoice-reconcile": reconcileJob,
  "invoice-expire": expireJob,
  "payout-process": payoutProcessJob,
  "webhook-deliver": deliverWebhookJob,
  "sandbox-callback": sandboxCallbackJob,
  "credentials-reseal": resealCredentialsJob,
};

/** Run by each worker process at start and every minute. */
export const JOB_SWEEPS: readonly JobSweep[] = [...processingSweeps, ...webhookSweeps, credentialsResealSweep];

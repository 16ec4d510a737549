import "server-only";
import type { Db } from "@/lib/db/client";
import type { JobName } from "@/lib/jobs/names";
import { startJobWorkers } from "@/lib/jobs/queue";
import type { JobSweep } from "@/lib/jobs/task";
import { recoverInterruptedRequestsSweep } from "@/lib/processing/recover";
import { expireOverdueInvoicesSweep, invoiceExpireTask } from "@/lib/processing/tasks/invoice-expire";
import { invoiceReconcileTask, requeueReconciliationSweep } from "@/lib/processing/tasks/invoice-reconcile";
import { payoutProcessTask } from "@/lib/processing/tasks/payout-process";
import { authorizationReconcileTask, requeueAuthorizationFollowUpsSweep, voidExpiredAuthorizationsSweep } from "@/lib/processing/tasks/authorization-reconcile";
import { refundReconcileTask, requeueRefundFollowUpsSweep } from "@/lib/refunds/tasks/refund-reconcile";
import { disputeFollowUpsSweep, disputeFollowUpTask, disputeRemindersSweep } from "@/lib/disputes/tasks/dispute-follow-up";
import { alertsEvaluateSweep } from "@/lib/alerts/tasks/alerts-evaluate";
import { pruneRoutingStatsSweep } from "@/lib/routing/success-stats";
import { disputeRateSweep } from "@/lib/analytics/connection-health";
import { sweepRequestLogSweep } from "@/lib/request-log/sweep";
import { sandboxCallbackTask } from "@/lib/providers/server/tasks/sandbox-callback";
import { sandboxRefundSettleTask } from "@/lib/sandbox/tasks/sandbox-refund-settle";
import { sandboxDisputeDecideTask, sandboxDisputeOpenTask } from "@/lib/sandbox/tasks/sandbox-dispute";
import { credentialsResealSweep, credentialsResealTask } from "@/lib/vault/reseal-job";
import { webhookDeliverTask, webhookDueTriesSweep } from "@/lib/webhooks/tasks/webhook-deliver";

/**
 * The composition root of the background jobs: every task a worker runs and every sweep it repeats,
 * handed to the queue (lib/jobs) here, so the queue itself knows no domain. The app server
 * (lib/server-start.ts) and `npm run worker` (scripts/worker.ts) start their workers through it;
 * integration tests run due jobs with JOB_TASKS.
 */
export const JOB_TASKS = [
  invoiceReconcileTask,
  invoiceExpireTask,
  payoutProcessTask,
  webhookDeliverTask,
  sandboxCallbackTask,
  sandboxRefundSettleTask,
  sandboxDisputeOpenTask,
  sandboxDisputeDecideTask,
  credentialsResealTask,
  refundReconcileTask,
  authorizationReconcileTask,
  disputeFollowUpTask,
] as const;

// Every job name has its task: a name left out here would fail its jobs until they are dropped.
const everyJobHasATask: Exclude<JobName, (typeof JOB_TASKS)[number]["name"]> extends never ? true : never = true;
void everyJobHasATask;

/** Run by each worker process at start and every minute, in this order. */
const JOB_SWEEPS: readonly JobSweep[] = [
  expireOverdueInvoicesSweep,
  requeueReconciliationSweep,
  recoverInterruptedRequestsSweep,
  webhookDueTriesSweep,
  credentialsResealSweep,
  requeueRefundFollowUpsSweep,
  pruneRoutingStatsSweep,
  voidExpiredAuthorizationsSweep,
  requeueAuthorizationFollowUpsSweep,
  disputeFollowUpsSweep,
  disputeRemindersSweep,
  disputeRateSweep,
  alertsEvaluateSweep,
  sweepRequestLogSweep,
];

/** Starts this process's job workers with every task and sweep (`JOBS_WORKERS=off`: none). */
export function startServerJobs(db: Db): Promise<void> {
  return startJobWorkers(db, JOB_TASKS, JOB_SWEEPS);
}

/**
 * Every retry schedule of the service, side by side: when a failed or unfinished piece of work is
 * tried again, and for how long. Each is used from here; the code that follows one only reads it.
 */

// ---- Jobs (lib/jobs/queue.ts) ---------------------------------------------------------------

/**
 * A job whose handler throws (or whose worker crashed) is retried by pg-boss: 5 s, then doubling,
 * up to 10 times, before the job is failed. A job still `active` after `expireInSeconds` lost its
 * worker and is retried too (JOBS_EXPIRE_SECONDS overrides it).
 */
export const JOB_RETRIES = { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 15 * 60 } as const;

// ---- Merchant webhook deliveries (lib/webhooks/deliver.ts) ----------------------------------

/**
 * A try that did not get a 2xx is followed by the next one after RETRY_DELAYS_SECONDS (one per
 * failed try), then every RETRY_EVERY_SECONDS, while the next try is within RETRY_WINDOW_HOURS of
 * the event; after that the event is failed.
 */
export const RETRY_DELAYS_SECONDS = [10, 30, 120, 600, 1800, 3600] as const;
export const RETRY_EVERY_SECONDS = 7200;
export const RETRY_WINDOW_HOURS = 24;

/** Seconds from failed try number `tryNo` (1-based) to the next. */
export function retryDelaySeconds(tryNo: number): number {
  return RETRY_DELAYS_SECONDS[tryNo - 1] ?? RETRY_EVERY_SECONDS;
}

// ---- Status requests for an open attempt (lib/processing/follow-ups.ts) ---------------------

/**
 * Status requests for an attempt whose outcome is unknown or pending: 10 s, 30 s, 2 min, 10 min after
 * it, then hourly until the invoice is final or its lifetime has passed (spec 6).
 */
const RECONCILE_SCHEDULE_SECONDS = [10, 30, 120, 600] as const;
export const RECONCILE_HOURLY_SECONDS = 3600;

/** Seconds from the attempt to its status request number `step` (0-based). */
export function reconcileDelaySeconds(step: number): number {
  return RECONCILE_SCHEDULE_SECONDS[step] ?? RECONCILE_SCHEDULE_SECONDS.at(-1)! + (step - RECONCILE_SCHEDULE_SECONDS.length + 1) * RECONCILE_HOURLY_SECONDS;
}

/**
 * How long a customer may still be on the provider's 3-D Secure page: about what card schemes give
 * an authentication session. A pending payment is not given up before its attempt is this old,
 * even when the invoice's lifetime ends sooner (the customer started paying at the last minute).
 */
export const THREE_DS_SESSION_SECONDS = 15 * 60;

/**
 * The longest a schedule is followed: hourly requests for a month, after the first four. An open
 * refund is asked about hourly from each run after it (lib/refunds/follow-up.ts).
 */
export const RECONCILE_MAX_STEP = 24 * 31 + 4;

/** The first step of the schedule still ahead of now for an attempt started at `startedAt`. */
export function nextStepFrom(startedAt: Date, now = new Date()): number {
  const elapsed = (now.getTime() - startedAt.getTime()) / 1000;
  let step = 0;
  while (reconcileDelaySeconds(step) <= elapsed && step < RECONCILE_MAX_STEP) step += 1;
  return step;
}

// ---- Status requests for an open refund (lib/refunds/follow-up.ts) --------------------------

/**
 * Refunds follow the attempts' schedule above (reconcileDelaySeconds, RECONCILE_MAX_STEP). The
 * sweep that re-queues an open refund's lost request takes it only once it has been left alone
 * this long: longer than a send and its status request can take (two provider timeouts, and half
 * a minute more; a minute at least), so a refund whose create request is still waiting on the
 * provider is never sent a second time meanwhile.
 */
export function refundSweepGraceSeconds(providerTimeoutMs: number): number {
  return Math.max(60, Math.ceil((2 * providerTimeoutMs) / 1000) + 30);
}

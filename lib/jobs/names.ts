/**
 * Every background job the service runs (issue 11), with its payload. Payloads carry ids only:
 * never a secret, a card number or a body; the handler reads what it needs when it runs, so a job
 * that runs late (or twice) acts on the state as it is then.
 */
export type JobPayloads = {
  /** One status request (reconciliation) for an attempt in an unknown or pending state; `step` indexes RECONCILE_SCHEDULE. */
  "invoice-reconcile": { invoiceId: string; attemptId: string; step: number };
  /** Expires the invoice if it is still unpaid at its expires_at. */
  "invoice-expire": { invoiceId: string };
  /** A payout's next attempt (cascade) after a status request or a callback settled the last one as a soft failure. */
  "payout-process": { invoiceId: string; afterAttemptId: string };
  /** One try of a merchant webhook delivery; the event row says what and where. */
  "webhook-deliver": { eventId: string; invoiceId: string | null; tryNo: number };
  /** A sandbox (a simulated provider) sending its callback about one of its records. */
  "sandbox-callback": { provider: string; connectionId: string; reference: string; notificationId: string };
  /** Re-seals vault values under CREDENTIALS_KEY after a key rotation; `keyId` names that key (its public id, lib/vault). */
  "credentials-reseal": { keyId: string };
};

export type JobName = keyof JobPayloads;

export const JOB_NAMES = ["invoice-reconcile", "invoice-expire", "payout-process", "webhook-deliver", "sandbox-callback", "credentials-reseal"] as const satisfies readonly JobName[];

/**
 * Status requests for an attempt whose outcome is unknown or pending: 10 s, 30 s, 2 min, 10 min after
 * it, then hourly until the invoice is final or its lifetime has passed (issue 11, spec 6).
 */
export const RECONCILE_SCHEDULE_SECONDS = [10, 30, 120, 600] as const;
export const RECONCILE_HOURLY_SECONDS = 3600;

/** Seconds from the attempt to its status request number `step` (0-based). */
export function reconcileDelaySeconds(step: number): number {
  return RECONCILE_SCHEDULE_SECONDS[step] ?? RECONCILE_SCHEDULE_SECONDS.at(-1)! + (step - RECONCILE_SCHEDULE_SECONDS.length + 1) * RECONCILE_HOURLY_SECONDS;
}

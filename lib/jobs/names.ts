import { z } from "zod";

/**
 * Every background job the service runs, with the schema of its payload. Payloads carry ids only:
 * never a secret, a card number or a body; the handler reads what it needs when it runs, so a job
 * that runs late (or twice) acts on the state as it is then.
 *
 * The schemas live here, beside the queue, rather than in the task files: the queue checks a payload
 * when it is sent, and a sender must not import the task that handles it (its handler reaches back
 * into the sender's module). Jobs already queued in a database carry these shapes: change one only
 * together with a way to handle what is still queued.
 */
export const JOB_PAYLOAD_SCHEMAS = {
  /** One status request (reconciliation) for an attempt in an unknown or pending state; `step` indexes the schedule (lib/retry-schedules.ts). */
  "invoice-reconcile": z.object({ invoiceId: z.string(), attemptId: z.string(), step: z.number().int().nonnegative() }),
  /** Expires the invoice if it is still unpaid at its expires_at. */
  "invoice-expire": z.object({ invoiceId: z.string() }),
  /** A payout's next attempt (cascade) after a status request or a callback settled the last one as a soft failure. */
  "payout-process": z.object({ invoiceId: z.string(), afterAttemptId: z.string() }),
  /**
   * One try of a merchant event to one endpoint (its webhook_event_targets row holds the state).
   * Without `endpointId` (a job queued before endpoints existed) the try goes to each endpoint of the event.
   */
  "webhook-deliver": z.object({ eventId: z.string(), endpointId: z.string().optional(), invoiceId: z.string().nullable(), tryNo: z.number().int().positive() }),
  /** A sandbox (a simulated provider) sending its callback about one of its records. */
  "sandbox-callback": z.object({ provider: z.string(), connectionId: z.string(), reference: z.string(), notificationId: z.string() }),
  /** A sandbox settling a test refund it took as pending (it then sends its callback). */
  "sandbox-refund-settle": z.object({ provider: z.string(), reference: z.string() }),
  /** A sandbox opening the dispute of a captured test payment paid with a dispute card (it then sends its callback). */
  "sandbox-dispute-open": z.object({ provider: z.string(), paymentReference: z.string() }),
  /** A sandbox deciding a test dispute whose evidence it took (won or lost; it then sends its callback). */
  "sandbox-dispute-decide": z.object({ provider: z.string(), reference: z.string() }),
  /** Re-seals vault values under CREDENTIALS_KEY after a key rotation; `keyId` names that key (its public id, lib/vault). */
  "credentials-reseal": z.object({ keyId: z.string() }),
  /** One status request for an open refund (lib/refunds); `step` indexes the schedule (lib/retry-schedules.ts). */
  "refund-reconcile": z.object({ refundId: z.string(), invoiceId: z.string(), step: z.number().int().nonnegative() }),
  /** One status request for a capture or void without an answer (lib/processing/authorization.ts). */
  "authorization-reconcile": z.object({ invoiceId: z.string(), step: z.number().int().nonnegative() }),
  /** One dispute status request for an open dispute whose next word is awaited (lib/disputes/tasks/dispute-follow-up.ts). */
  "dispute-follow-up": z.object({ disputeId: z.string() }),
} as const;

export type JobName = keyof typeof JOB_PAYLOAD_SCHEMAS;

export type JobPayloads = { [N in JobName]: z.infer<(typeof JOB_PAYLOAD_SCHEMAS)[N]> };

/** Every job's name, in the order above (queues are made and polled in it): adding a job is its one entry above. */
export const JOB_NAMES = Object.keys(JOB_PAYLOAD_SCHEMAS) as readonly JobName[];

/** The payload checked against its job's schema; throws (a ZodError) when it does not fit. */
export function checkPayload<N extends JobName>(name: N, data: unknown): JobPayloads[N] {
  return JOB_PAYLOAD_SCHEMAS[name].parse(data) as JobPayloads[N];
}

import "server-only";
import { createSign, createVerify } from "node:crypto";
import { z } from "zod";

/**
 * Provider A's wire format, shared by its adapter, its callbacks and its sandbox. API v2 takes
 * JSON bodies carrying merchant_id and service_code, each signed with the merchant's private key
 * (RSA-SHA256 of the raw body, base64, header `X-Signature`); A verifies it with the payment key
 * issued for the merchant. Payments, payouts and status requests are answered with one shape;
 * refunds (below) with a refund object of their own.
 *
 * A merchant_id A does not know and a signature that does not verify get one and the same 401
 * (`A_SIGN_IN_REFUSAL`): telling them apart would tell anyone which merchant IDs exist. Only a
 * caller whose signature verified hears that its service_code is not the merchant's
 * (`invalid_service_code`).
 *
 * A's callbacks are signed with A's own key, not the merchant's: `X-A-Signature` is the base64
 * Ed25519 signature of `${X-A-Event-Id}.${X-A-Timestamp}.${raw body}`.
 */

const A_STATUSES = [
  "approved",
  "partially_approved",
  "declined",
  "failed",
  "3ds_required",
  "processing",
  "completed",
  "partially_completed",
  "canceled",
  "partially_canceled",
  "authorized",
] as const;

/** A's one answer to an unknown merchant_id and to a signature that does not verify (HTTP 401, `{ error }`). */
export const A_SIGN_IN_REFUSAL = { code: "authentication_failed", message: "merchant_id or X-Signature is wrong." } as const;

const A_PART_STATUSES = ["paid", "failed", "processing", "canceled"] as const;

/** A's answer to a payment, a payout or a status request, as the adapter reads it. */
export const aAnswerSchema = z.object({
  status: z.enum(A_STATUSES),
  transaction_id: z.string(),
  currency: z.string(),
  amount_processed: z.string().optional(),
  decline_code: z.string().optional(),
  decline_reason: z.string().optional(),
  redirect_url: z.string().optional(),
  parts: z.array(z.object({ part_reference: z.string(), amount: z.string(), status: z.enum(A_PART_STATUSES) })).optional(),
  card_token: z.lazy(() => aCardTokenSchema).optional(),
  /** An authorization (`status: "authorized"`, see "Authorize now, capture later" below): what is reserved and until when. */
  amount_authorized: z.string().optional(),
  authorization_expires_at: z.string().optional(),
});

export type ATransaction = z.infer<typeof aAnswerSchema>;

/** What the sandbox answers: the same shape, always with the merchant's request_id. */
export type AAnswer = ATransaction & { request_id: string };

/** A transaction notification's transaction: the status endpoint's answer without a redirect. */
export const aCallbackTransactionSchema = aAnswerSchema
  .omit({ redirect_url: true })
  .extend({ transaction_id: z.string().min(1), request_id: z.string().min(1), currency: z.string().length(3) });

/**
 * A refund (`POST /api/v2/refunds`, not shown in the spec; designed in A's style): a signed JSON
 * body like every request, carrying merchant_id and service_code, `request_id` (the idempotency
 * key: the service's refund id), `transaction_id` (the payment's, as A answered it), `amount`
 * (decimal text) and `currency`, and an optional `reason`. Its status is asked at the one status
 * endpoint, `POST /api/v2/status` with the refund's `request_id` and `operation: "refund"`, which
 * answers the same refund object. Partial refunds are allowed, several per payment, up to the
 * payment's amount_processed.
 */
export const aRefundRequestSchema = z.object({
  request_id: z.string().min(1).max(255),
  transaction_id: z.string().min(1),
  amount: z.string(),
  currency: z.string().length(3),
  reason: z.string().max(255).optional(),
});

const A_REFUND_STATUSES = ["refunded", "processing", "declined"] as const;

/** A refund as A answers it (and as the adapter reads it); declines carry A's ISO 8583 code. */
export const aRefundAnswerSchema = z.object({
  status: z.enum(A_REFUND_STATUSES),
  refund_id: z.string(),
  request_id: z.string(),
  transaction_id: z.string(),
  amount_refunded: z.string(),
  currency: z.string(),
  decline_code: z.string().optional(),
  decline_reason: z.string().optional(),
});

export type ARefund = z.infer<typeof aRefundAnswerSchema>;

export const A_SIGNATURE_HEADER = "x-signature";

export function signBody(body: string, privateKeyPem: string): string {
  return createSign("sha256").update(body).sign(privateKeyPem, "base64");
}

export function verifyBody(body: string, signature: string, publicKeyPem: unknown): boolean {
  if (typeof publicKeyPem !== "string" || signature === "") return false;
  try {
    return createVerify("sha256").update(body).verify(publicKeyPem, signature, "base64");
  } catch {
    return false;
  }
}

export const A_CALLBACK_HEADERS = { eventId: "x-a-event-id", timestamp: "x-a-timestamp", signature: "x-a-signature" } as const;

export const callbackSigningText = (eventId: string, timestamp: number, rawBody: string) => `${eventId}.${timestamp}.${rawBody}`;

/**
 * 3-D Secure on request, in A's style: a payment with `three_ds: "required"` asks A to authenticate
 * the customer; A answers `status: "3ds_required"` with `redirect_url` (the challenge page), or
 * approves at once when the issuer authenticates without a challenge (frictionless). Without the
 * field A decides itself (its sandbox: only 4000 0000 0000 3220).
 */
export const A_THREE_DS_REQUIRED = "required";

/**
 * Saved cards, in A's nested style: a payment with `tokenize: true` keeps the card once it is
 * approved and answers a `card_token` object (`token_id` `atok_…`, `brand`, `last4`, `exp_month`,
 * `exp_year` as text, like `card_credentials`); a payment with `card_token_id` instead of
 * `card_credentials` charges the kept card (no CVV). `POST /api/v2/tokens/delete` with
 * `{ merchant_id, service_code, token_id }`, signed like every request, forgets it (`{ status:
 * "deleted" }`; 404 `unknown_token`). The token is in signed bodies only, never a path.
 */
const aCardTokenSchema = z.object({
  token_id: z.string(),
  brand: z.string().nullable().optional(),
  last4: z.string(),
  exp_month: z.string(),
  exp_year: z.string(),
});

export const aTokenDeleteSchema = z.object({ token_id: z.string().min(1).max(64) });

export const A_CARD_TOKEN_PREFIX = "atok_";

/**
 * Authorize now, capture later, in A's style (signed JSON POSTs naming merchant_id and
 * service_code; `request_id` the idempotency key; decimal-text amounts; ISO 8583 decline codes). A
 * payment with `capture: false` only reserves the amount: A answers `status: "authorized"` with
 * `amount_authorized`, `amount_processed: "0.00"` and `authorization_expires_at` (ISO 8601). Then one of:
 * - `POST /api/v2/captures` `{ request_id, transaction_id, amount, currency }`: all of the
 *   authorization or part of it (the rest is released: `amount_released`);
 * - `POST /api/v2/voids` `{ request_id, transaction_id }`: the hold is released, nothing taken.
 * Each answers its own object (`status` captured | voided | declined, `capture_id` / `void_id`,
 * `request_id`, `transaction_id`, and `decline_code`/`decline_reason` when declined); the status
 * endpoint answers it again later: `POST /api/v2/status` with its `request_id` and
 * `operation: "capture"` or `"void"`.
 */
export const aCaptureRequestSchema = z.object({
  request_id: z.string().min(1).max(255),
  transaction_id: z.string().min(1),
  amount: z.string(),
  currency: z.string().length(3),
});

export const aCaptureAnswerSchema = z.object({
  status: z.enum(["captured", "declined"]),
  capture_id: z.string(),
  request_id: z.string(),
  transaction_id: z.string(),
  amount_captured: z.string(),
  amount_released: z.string().optional(),
  currency: z.string(),
  decline_code: z.string().optional(),
  decline_reason: z.string().optional(),
});

export type ACapture = z.infer<typeof aCaptureAnswerSchema>;

export const aVoidRequestSchema = z.object({ request_id: z.string().min(1).max(255), transaction_id: z.string().min(1) });

export const aVoidAnswerSchema = z.object({
  status: z.enum(["voided", "declined"]),
  void_id: z.string(),
  request_id: z.string(),
  transaction_id: z.string(),
  decline_code: z.string().optional(),
  decline_reason: z.string().optional(),
});

export type AVoid = z.infer<typeof aVoidAnswerSchema>;

/**
 * Disputes (not in the spec; designed in A's style: signed JSON POSTs naming merchant_id and
 * service_code, decimal-text amounts, card-scheme reason codes). A tells of a dispute of one of
 * its transactions by notification (`type: "dispute.updated"`, `dispute` as below); then:
 * - `POST /api/v2/status` with `operation: "dispute"` and `dispute_id`: the dispute as it is now;
 * - `POST /api/v2/disputes/evidence` `{ request_id, dispute_id, evidence: { product_description?,
 *   customer_communication?, shipping_tracking?, refund_policy?, explanation? }, attachments: [{
 *   file_name, content_type, sha256, content_base64 }] }`: `request_id` is the idempotency key (the
 *   service's dispute id);
 * - `POST /api/v2/disputes/accept` `{ request_id, dispute_id }`.
 * Each answers the dispute: `dispute_id`, the transaction's `transaction_id` and `request_id`,
 * `status` (evidence_required | in_review | won | lost | accepted), `reason_code` (the scheme's
 * code, ../mapping.ts), `amount_disputed`, `currency`, `evidence_due_at` (ISO 8601). Too late or no
 * longer open: 422 with `error.code` `evidence_window_closed` or `dispute_not_open`.
 */
const A_DISPUTE_STATUSES = ["evidence_required", "in_review", "won", "lost", "accepted"] as const;

export const aDisputeSchema = z.object({
  dispute_id: z.string().min(1),
  transaction_id: z.string(),
  request_id: z.string().optional(),
  status: z.enum(A_DISPUTE_STATUSES),
  reason_code: z.string(),
  amount_disputed: z.string(),
  currency: z.string().length(3),
  evidence_due_at: z.string(),
});

export type ADispute = z.infer<typeof aDisputeSchema>;

const aText = z.string().max(20_000).optional();

export const aDisputeEvidenceSchema = z.object({
  request_id: z.string().min(1).max(255),
  dispute_id: z.string().min(1),
  evidence: z.object({ product_description: aText, customer_communication: aText, shipping_tracking: aText, refund_policy: aText, explanation: aText }),
  attachments: z
    .array(z.object({ file_name: z.string().max(255), content_type: z.string().max(255), sha256: z.string().max(64), content_base64: z.string() }))
    .max(20)
    .default([]),
});

export const aDisputeAcceptSchema = z.object({ request_id: z.string().min(1).max(255), dispute_id: z.string().min(1) });

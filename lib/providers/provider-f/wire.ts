import "server-only";
import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { hmac } from "@/lib/providers/kit/callback-scheme";

/**
 * Provider F's wire format, shared by its adapter and its sandbox. F is a resource API in
 * snake_case: `charge` (and `refund`, below) objects with integer cents and lower-case currencies, statuses
 * `succeeded` / `requires_action` / `failed`, and errors `{ error: { type, code, message } }`.
 *
 * Authentication (spec 5.2): every request carries the public key in `x-merchant-id` and
 * `x-signature: hex HMAC-SHA256(secret_key, raw body)` (the empty string for a GET). A request
 * without x-merchant-id, with a public key F does not know, or with a bad signature is answered
 * 401, on every path. Test mode takes dev_ keys, live prod_ keys. A public key F does not know and
 * a bad signature get one and the same answer (`F_SIGN_IN_REFUSAL`): telling them apart would tell
 * anyone which public keys exist.
 *
 * F's events carry `x-event-id`, `x-event-timestamp` (unix seconds) and
 * `x-event-signature: sha256=<hex>`, the HMAC-SHA256 with the secret key of
 * `${x-event-id}\n${x-event-timestamp}\n${raw body}`.
 */

export const F_PATHS = {
  charges: "/v1/charges",
  charge: (id: string) => `/v1/charges/${encodeURIComponent(id)}`,
  byIdempotencyKey: (key: string) => `/v1/charges?idempotency_key=${encodeURIComponent(key)}`,
  account: "/v1/account",
  refunds: "/v1/refunds",
  refund: (id: string) => `/v1/refunds/${encodeURIComponent(id)}`,
  refundByIdempotencyKey: (key: string) => `/v1/refunds?idempotency_key=${encodeURIComponent(key)}`,
  dispute: (id: string) => `/v1/disputes/${encodeURIComponent(id)}`,
  disputeEvidence: (id: string) => `/v1/disputes/${encodeURIComponent(id)}/evidence`,
  disputeClose: (id: string) => `/v1/disputes/${encodeURIComponent(id)}/close`,
} as const;

type FCardSource = { type: "card"; card: { number: string; exp_month: number; exp_year: number; cvc?: string; holder_name: string } };
/** options.bypass_hpp: no hosted page and no card; F collects the card itself. */
type FBypassSource = { type: "hpp_bypass" };

export type FChargeRequest = {
  amount: number;
  currency: string;
  reference: string;
  partial_capture: boolean;
  payment_method: FCardSource | FBypassSource | FSavedCardSource;
  customer: Record<string, unknown>;
  return_url: string;
  metadata: { invoice_id: string; tokenize: boolean };
  /**
   * 3-D Secure on request: `request_three_d_secure: "any"` makes F authenticate the cardholder (status
   * requires_action with a redirect, or succeeded at once when frictionless); absent or "automatic": F
   * decides (its sandbox: only 4000 0000 0000 3220).
   */
  payment_method_options?: { card: { request_three_d_secure: "any" | "automatic" } };
};

export const F_FAILURE_CODES = ["card_declined", "insufficient_funds", "incorrect_cvc", "authentication_failed", "processing_error"] as const;
export type FFailureCode = (typeof F_FAILURE_CODES)[number];

export const F_CHARGE_STATUSES = ["succeeded", "requires_action", "failed"] as const;

export type FCharge = {
  id: string;
  object: "charge";
  status: (typeof F_CHARGE_STATUSES)[number];
  amount: number;
  amount_captured: number;
  currency: string;
  livemode: false;
  failure_code?: FFailureCode;
  next_action?: { type: "redirect_to_url"; url: string };
  /** Saved cards (below): the kept card, on a succeeded charge whose metadata asked to tokenize. */
  payment_method_details?: FSavedCardDetails;
};

export type FErrorCode =
  | "missing_merchant_id"
  // A prod_ key sent to the sandbox: never a sandbox merchant's, whoever sends it.
  | "unknown_merchant_id"
  | "invalid_api_key"
  | "processor_unavailable"
  | "resource_missing"
  | "invalid_request"
  // A refund F refuses to take (nothing recorded): ./sandbox/refunds.ts.
  | "idempotency_key_in_use"
  | "charge_not_captured"
  | "currency_mismatch"
  | "amount_invalid"
  | "card_token_missing"
  // A dispute response F does not take: ./sandbox/disputes.ts.
  | "evidence_past_due"
  | "dispute_not_open";

/**
 * A refund (not shown in the spec; designed in F's style). `POST /v1/refunds` takes a `refund`
 * request naming the charge by its id (`charge: "ch_…"`), with integer cents and a lower-case
 * currency like a charge; `reference` is the idempotency key (the service's refund id, also sent
 * as the `idempotency-key` header, as for charges): the same reference again is the same refund.
 * It answers a `refund` object: `id` ("re_…"), `status` succeeded / pending / failed, and on
 * failure a `failure_code` (./mapping.ts). `GET /v1/refunds/{id}` and
 * `GET /v1/refunds?idempotency_key={reference}` answer the same object, 404 resource_missing when
 * F has no such refund. Partial refunds are allowed, several per charge, up to what was captured.
 * A refund F does not take (nothing recorded) is an error: 404 resource_missing (no such charge of
 * this merchant), 409 charge_not_captured or idempotency_key_in_use, 400 currency_mismatch,
 * amount_invalid or invalid_request, 503 processor_unavailable. Authentication as for every call:
 * x-merchant-id and x-signature, 401 otherwise.
 */
export const fRefundRequestSchema = z.object({
  charge: z.string().min(1),
  amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  currency: z.string().regex(/^[a-z]{3}$/),
  reference: z.string().min(1).max(255),
  reason: z.string().max(255).optional(),
  metadata: z.object({ invoice_id: z.string() }).optional(),
});

export type FRefundRequest = z.input<typeof fRefundRequestSchema>;

const F_REFUND_STATUSES = ["succeeded", "pending", "failed"] as const;

/** A refund as F answers it (and as the adapter reads it). */
export const fRefundSchema = z.object({
  id: z.string().min(1),
  object: z.literal("refund"),
  status: z.enum(F_REFUND_STATUSES),
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  charge: z.string(),
  reference: z.string(),
  livemode: z.boolean(),
  failure_code: z.string().optional(),
  failure_message: z.string().optional(),
});

export type FRefund = z.infer<typeof fRefundSchema>;

export type FError = { error: { type: "authentication_error" | "api_error" | "invalid_request_error"; code: FErrorCode; message: string } };

/** F's one answer (HTTP 401) to a public key it does not know and to an x-signature that does not verify. */
export const F_SIGN_IN_REFUSAL = {
  type: "authentication_error",
  code: "invalid_api_key",
  message: "x-merchant-id or x-signature is wrong.",
} as const satisfies FError["error"];

export function signF(secretKey: string, rawBody: string): string {
  return hmac("sha256", secretKey, rawBody);
}

export function verifyF(secretKey: string, rawBody: string, signature: string): boolean {
  const expected = Buffer.from(signF(secretKey, rawBody), "hex");
  const given = Buffer.from(/^[0-9a-f]+$/i.test(signature) ? signature : "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const F_CALLBACK_HEADERS = { id: "x-event-id", timestamp: "x-event-timestamp", signature: "x-event-signature" } as const;

export function callbackSignature(secretKey: string, id: string, timestamp: number, rawBody: string): string {
  return hmac("sha256", secretKey, `${id}\n${timestamp}\n${rawBody}`);
}

export const callbackSignatureHeader = (signature: string) => `sha256=${signature}`;

/** The hex digest of an `x-event-signature` header; undefined when it is not one. */
export const readCallbackSignature = (header: string | null) => /^sha256=([0-9a-f]+)$/i.exec(header ?? "")?.[1];

/**
 * Saved cards, in F's object style: a charge whose `metadata.tokenize` is true (as it already was
 * for the spec's `cardgate` options) keeps its card once succeeded and answers
 * `payment_method_details: { object: "saved_card", card_token: "ftok_…", brand, last4, exp_month,
 * exp_year }`; a charge with `payment_method: { type: "saved_card", card_token }` uses it (no CVC;
 * 3-D Secure may still be asked). `POST /v1/saved_cards/detach` with `{ card_token }` forgets it:
 * `{ object: "saved_card", detached: true }`, or 404 `card_token_missing`.
 */
type FSavedCardSource = { type: "saved_card"; card_token: string };

export type FSavedCardDetails = { object: "saved_card"; card_token: string; brand: string | null; last4: string; exp_month: number; exp_year: number };

export const F_SAVED_CARD_PATHS = { detach: "/v1/saved_cards/detach" } as const;

export const F_CARD_TOKEN_PREFIX = "ftok_";

/**
 * Disputes (not in the spec; designed in F's style: `dispute` objects with integer cents and a
 * lower-case currency, statuses in snake_case, errors `{ error: { type, code, message } }`). F
 * tells of a dispute of one of its charges by event (`type: "dispute.updated"`, the dispute in
 * `data.object`); then:
 * - `GET /v1/disputes/{id}`: the dispute as it is now;
 * - `POST /v1/disputes/{id}/evidence` `{ reference, evidence: { product_description?,
 *   customer_communication?, shipping_tracking?, refund_policy?, explanation? }, files: [{ filename,
 *   content_type, data }] }` (data base64): `reference` is the idempotency key (the service's
 *   dispute id, also sent as the `idempotency-key` header);
 * - `POST /v1/disputes/{id}/close` `{ reference }`: the merchant accepts the dispute.
 * Each answers the dispute: `id` ("dp_…"), `object: "dispute"`, the `charge` and its `charge_reference`,
 * `status` (needs_response | under_review | won | lost | accepted), F's `reason` (../mapping.ts),
 * `amount`, `currency`, `evidence_details.due_by` (unix seconds). Too late or no longer open: 422
 * `evidence_past_due` or `dispute_not_open`.
 */
const F_DISPUTE_STATUSES = ["needs_response", "under_review", "won", "lost", "accepted"] as const;

export const fDisputeSchema = z.object({
  id: z.string().min(1),
  object: z.literal("dispute"),
  charge: z.string(),
  charge_reference: z.string().optional(),
  status: z.enum(F_DISPUTE_STATUSES),
  reason: z.string(),
  amount: z.number().int().nonnegative(),
  currency: z.string().regex(/^[a-z]{3}$/),
  evidence_details: z.object({ due_by: z.number().int() }),
});

export type FDispute = z.infer<typeof fDisputeSchema>;

const fText = z.string().max(20_000).optional();

export const fDisputeEvidenceSchema = z.object({
  reference: z.string().min(1).max(255),
  evidence: z.object({ product_description: fText, customer_communication: fText, shipping_tracking: fText, refund_policy: fText, explanation: fText }),
  files: z
    .array(z.object({ filename: z.string().max(255), content_type: z.string().max(255), data: z.string() }))
    .max(20)
    .default([]),
});

export const fDisputeCloseSchema = z.object({ reference: z.string().min(1).max(255) });

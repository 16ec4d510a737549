import "server-only";
import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { hmac } from "@/lib/providers/kit/callback-scheme";

/**
 * Provider D's wire format, shared by its adapter and its sandbox so both sides agree on it by
 * construction. D speaks a merchant-gateway dialect: every call is a POST of snake_case JSON,
 * amounts are integers in tiyin, the currency travels as its ISO 4217 numeric code, the answer is
 * `{ result }` or `{ error: { code, message } }`, and a transaction's state is a number (2 performed,
 * 3 performed partly, -1 rejected with D's own negative reject code, -2 failed in processing).
 *
 * Authentication: `Api-Key: <api_key>` and `Sign: <hex HMAC-SHA512 of the raw body with secret_key>`.
 * The account is named by `merchant_id` in the body. A merchant_id D does not know, an Api-Key
 * that is not the merchant's and a Sign that does not verify get one and the same 401
 * (`D_SIGN_IN_REFUSAL`): the Api-Key is a secret sent as it is, so a refusal that moved on to the
 * signature once the key was right would let anyone guess keys, and one that told the merchant
 * apart would tell which merchant IDs exist.
 *
 * D's notifications carry `Notify-Id`, `Notify-Time` (unix seconds) and `Sign`: the hex
 * HMAC-SHA512 with the merchant's secret key of `${Notify-Id}:${Notify-Time}:${raw body}`.
 */

export const D_PATHS = {
  sale: "/merchant/v1/sale",
  transfer: "/p2p/v1/transfer",
  status: "/status",
  refund: "/refund",
  refundStatus: "/refund/status",
  ping: "/ping",
  disputeStatus: "/dispute/status",
  disputeEvidence: "/dispute/evidence",
  disputeAccept: "/dispute/accept",
} as const;

/** ISO 4217 numeric code: D names currencies by number. */
export const D_CURRENCY_CODES: Readonly<Record<string, string>> = { UZS: "860" };

/** D's transaction states; `failed` means D received the sale but its processing was down, nothing was charged. */
export const D_STATES = { performed: 2, performedPartly: 3, rejected: -1, failed: -2 } as const;

export type DState = (typeof D_STATES)[keyof typeof D_STATES];

export type DSaleRequest = {
  merchant_id: string;
  service_id: string;
  /** The service's idempotency key: D refuses a second sale with the same id and returns the first. */
  transaction_id: string;
  amount: number;
  currency: string;
  allow_partial: boolean;
  /** D takes no CVC and does no 3-D Secure (spec 4.1 example). Absent when `card_token` names a saved card. */
  card?: { pan: string; expiry: string; holder: string };
  /** Saved cards (below): keep the card once the sale is performed. */
  save_card?: boolean;
  /** Saved cards: sell to the card kept behind this token instead of `card`. */
  card_token?: string;
  description: string;
  /** Only when the connection's "Send merchant data" is on (spec 5.1). */
  merchant_category_code?: string;
  merchant_url?: string;
};

export type DTransaction = {
  transaction_id: string;
  payment_id: string;
  state: DState;
  amount: number;
  captured_amount: number;
  currency: string;
  channel: "merchant" | "p2p";
  reject_code: number | null;
  card_mask: string;
  /** Saved cards: the token, once a sale asked to keep its card was performed, and the card's expiry (YYMM). */
  card_token?: string;
  card_expiry?: string;
};

/**
 * A refund (`POST /refund`, not shown in the spec; designed in D's style): like a sale, a signed
 * snake_case body naming the merchant and service, the amount in tiyin and the currency by its
 * numeric code. `transaction_id` is the merchant's idempotency key, as on a sale (the service's
 * refund id: the same refund sent twice is one refund); `payment_id` is D's id of the sale or P2P
 * transfer to refund (one endpoint for both channels). Partial refunds are allowed, several per
 * payment, up to what was captured. The answer is `{ result: DRefund }`: D's own `refund_id` and a
 * numeric state (2 performed, 1 processing, -1 rejected with D's negative reject code, see
 * ../mapping.ts). `POST /refund/status` with `{ merchant_id, transaction_id }` answers the same
 * `{ result }`, or 404 transaction_not_found when D never received the refund. No merchant data
 * goes along: "Send merchant data" concerns payments only.
 */
export const dRefundSchema = z.object({
  merchant_id: z.string().min(1),
  service_id: z.string(),
  transaction_id: z.string().min(1).max(255),
  payment_id: z.string().min(1),
  amount: z.number().int().positive(),
  currency: z.string().min(1),
  reason: z.string().max(255).optional(),
});

export type DRefundRequest = z.input<typeof dRefundSchema>;

/** D's refund states: `processing` settles later (a status request or D's callback tells). */
export const D_REFUND_STATES = { performed: 2, processing: 1, rejected: -1 } as const;

export type DRefundState = (typeof D_REFUND_STATES)[keyof typeof D_REFUND_STATES];

/** A refund as D answers it (and as the adapter reads it). */
export const dRefundAnswerSchema = z.object({
  transaction_id: z.string(),
  refund_id: z.string().min(1),
  payment_id: z.string(),
  state: z.union([z.literal(D_REFUND_STATES.performed), z.literal(D_REFUND_STATES.processing), z.literal(D_REFUND_STATES.rejected)]),
  amount: z.number().int(),
  currency: z.string(),
  reject_code: z.number().int().nullable(),
});

export type DRefund = z.infer<typeof dRefundAnswerSchema>;

export type DError = { error: { code: DErrorCode; message: string } };

export type DErrorCode =
  | "unauthorized"
  // merchant_id missing from the body, or (ping, once the keys and signature were accepted) a service_id not the merchant's.
  | "unknown_merchant"
  | "wrong_channel"
  | "bad_request"
  | "transaction_not_found"
  | "service_unavailable"
  | "not_found"
  | "payment_not_found"
  | "not_captured"
  | "transaction_id_in_use"
  | "currency_mismatch"
  | "invalid_amount"
  | "card_not_found"
  | "dispute_not_found"
  | "response_deadline_passed"
  | "dispute_closed";

/** D's one answer to an unknown merchant_id, a wrong Api-Key and a Sign that does not verify (HTTP 401). */
export const D_SIGN_IN_REFUSAL = { code: "unauthorized", message: "merchant_id, Api-Key or Sign is wrong." } as const satisfies DError["error"];

export function signD(secretKey: string, rawBody: string): string {
  return hmac("sha512", secretKey, rawBody);
}

export function verifyD(secretKey: string, rawBody: string, sign: string): boolean {
  const expected = Buffer.from(signD(secretKey, rawBody), "hex");
  const given = Buffer.from(/^[0-9a-f]+$/i.test(sign) ? sign : "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** YYMM, as D's card schema wants the expiry. */
export function expiryYymm(month: number, year: number): string {
  return `${String(year % 100).padStart(2, "0")}${String(month).padStart(2, "0")}`;
}

export const D_CALLBACK_HEADERS = { id: "notify-id", time: "notify-time", sign: "sign" } as const;

export function callbackSign(secretKey: string, id: string, time: number, rawBody: string): string {
  return hmac("sha512", secretKey, `${id}:${time}:${rawBody}`);
}

/**
 * Saved cards, in D's style (signed snake_case bodies, `{ result }` answers, YYMM expiries): a sale
 * with `save_card: true` answers, once performed, `card_token` (`dtk_…`) and `card_expiry` beside
 * its `card_mask`; a sale with `card_token` and no `card` sells to the kept card (no CVC, no 3-D
 * Secure, as every D sale). `POST /merchant/v1/card/remove` with `{ merchant_id, card_token }`
 * forgets it: `{ result: { removed: true } }`, or 404 `card_not_found`.
 */
export const D_CARD_PATHS = { remove: "/merchant/v1/card/remove" } as const;

export const D_CARD_TOKEN_PREFIX = "dtk_";

/**
 * Disputes (not in the spec; designed in D's style: signed POSTs naming the merchant, amounts in
 * tiyin, the currency by its numeric code, numeric states and reason codes, `{ result }` or
 * `{ error }`). D tells of a dispute of one of its sales or transfers by notification
 * (`{ method: "dispute.notify", params: { notify_id, dispute } }`); then:
 * - `POST /dispute/status` `{ merchant_id, dispute_id }`: the dispute as it is now;
 * - `POST /dispute/evidence` `{ merchant_id, dispute_id, submission_id, evidence: { product_description?,
 *   customer_communication?, shipping_tracking?, refund_policy?, explanation? }, files: [{ name,
 *   mime, data }] }` (data base64): `submission_id` is the idempotency key (the service's dispute id);
 * - `POST /dispute/accept` `{ merchant_id, dispute_id, submission_id }`.
 * Each answers `{ result: DDispute }`: D's `dispute_id`, the sale's `payment_id` and
 * `transaction_id`, a numeric `state` (1 awaiting the merchant, 4 in review, 5 won, -5 lost,
 * 6 accepted), the scheme's numeric `reason_code` (../mapping.ts), `amount`, `currency` and
 * `respond_by` (unix seconds). Too late or no longer open: 422 `response_deadline_passed` or
 * `dispute_closed`; an unknown dispute_id 404 `dispute_not_found`.
 */
export const D_DISPUTE_STATES = { open: 1, reviewing: 4, won: 5, lost: -5, accepted: 6 } as const;

export const dDisputeSchema = z.object({
  dispute_id: z.string().min(1),
  payment_id: z.string(),
  transaction_id: z.string().optional(),
  state: z.union([
    z.literal(D_DISPUTE_STATES.open),
    z.literal(D_DISPUTE_STATES.reviewing),
    z.literal(D_DISPUTE_STATES.won),
    z.literal(D_DISPUTE_STATES.lost),
    z.literal(D_DISPUTE_STATES.accepted),
  ]),
  reason_code: z.number().int(),
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  respond_by: z.number().int(),
});

export type DDispute = z.infer<typeof dDisputeSchema>;

const dText = z.string().max(20_000).optional();

export const dDisputeEvidenceSchema = z.object({
  merchant_id: z.string().min(1),
  dispute_id: z.string().min(1),
  submission_id: z.string().min(1).max(255),
  evidence: z.object({ product_description: dText, customer_communication: dText, shipping_tracking: dText, refund_policy: dText, explanation: dText }),
  files: z
    .array(z.object({ name: z.string().max(255), mime: z.string().max(255), data: z.string() }))
    .max(20)
    .default([]),
});

export const dDisputeAcceptSchema = z.object({ merchant_id: z.string().min(1), dispute_id: z.string().min(1), submission_id: z.string().min(1).max(255) });

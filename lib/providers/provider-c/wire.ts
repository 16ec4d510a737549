import "server-only";
import { z } from "zod";
import { hmac } from "@/lib/providers/kit/callback-scheme";

/**
 * Provider C's wire format, shared by its adapter, its callbacks and its sandbox. The shop API
 * takes HTTP Basic authentication with the shop login and password, amounts in minor units
 * (`amount_minor`, `currency_code`) and the merchant's order id (`shop_order_id`) as the
 * idempotency key. Orders live under /shop/orders, refunds under /shop/refunds; /shop/whoami
 * answers who the shop is.
 *
 * C has no API secret of its own for the shop beyond the shop password, so it keys its callbacks'
 * HMAC with it: `X-Callback-Signature` is the base64 HMAC-SHA256 with the shop password of
 * `${X-Callback-Id}|${X-Callback-Time}|${raw body}` (time in unix seconds).
 */

export const C_STATES = ["PAID", "PARTIALLY_PAID", "REJECTED", "AWAITING_3DS", "PROCESSING", "AUTHORIZED"] as const;

/** An order request (the adapter sends it, the sandbox reads it). */
export const cOrderRequestSchema = z.object({
  shop_order_id: z.string().min(1).max(255),
  description: z.string().optional(),
  amount_minor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  currency_code: z.string().length(3),
  allow_partial_capture: z.boolean().default(false),
  /** Authorize now, capture later (below): MANUAL only reserves the amount. */
  capture_mode: z.enum(["AUTOMATIC", "MANUAL"]).default("AUTOMATIC"),
  payer: z.object({
    card: z
      .object({
        card_number: z.string().regex(/^\d{12,19}$/),
        expiry_month: z.number().int().min(1).max(12),
        expiry_year: z.number().int(),
        cvc: z.string().optional(),
        cardholder: z.string(),
      })
      .optional(),
    /** Saved cards (below): keep the card once the order is paid. */
    save_card: z.boolean().optional(),
    /** Saved cards: pay with the stored card instead of `card`. */
    stored_card: z.object({ card_token: z.string().min(1).max(64) }).optional(),
  }),
  return_url: z.string().optional(),
  /**
   * 3-D Secure on request: "REQUIRED" makes C authenticate the payer (state AWAITING_3DS with
   * `challenge_url`, or paid at once when frictionless); absent: C decides (its sandbox: only 4000 0000 0000 3220).
   */
  three_ds_mode: z.literal("REQUIRED").optional(),
  gateway_options: z.unknown().optional(),
  service_fields: z.unknown().optional(),
});

/** An order as the adapter reads C's answer. */
export const cOrderSchema = z.object({
  order: z.object({
    id: z.string(),
    state: z.enum(C_STATES),
    paid_minor: z.number().int().nonnegative().optional(),
    rejection_reason: z.string().optional(),
    challenge_url: z.string().optional(),
    stored_card: z.lazy(() => cStoredCardSchema).optional(),
    authorized_minor: z.number().int().nonnegative().optional(),
    authorization_expires_at: z.string().optional(),
  }),
});

export type CReadOrder = z.infer<typeof cOrderSchema>["order"];

/** What the sandbox answers about an order. */
export type COrder = {
  order: {
    id: string;
    shop_order_id: string;
    state: "PAID" | "PARTIALLY_PAID" | "REJECTED" | "AWAITING_3DS" | "AUTHORIZED";
    amount_minor: number;
    currency_code: string;
    paid_minor?: number;
    authorized_minor?: number;
    authorization_expires_at?: string;
    rejection_reason?: string;
    challenge_url?: string;
    stored_card?: CStoredCard;
  };
};

/**
 * A refund (`POST /shop/refunds`, not shown in the spec; designed in C's style): HTTP Basic like
 * orders, a JSON body with `shop_refund_id` (the idempotency key: the service's refund id, as
 * `shop_order_id` is an order's), `order_id` (C's id of the paid order), `amount_minor`,
 * `currency_code` and an optional `reason`. Answered `{ refund: … }`, 201 when taken and 200 when
 * the shop_refund_id was taken before; `GET /shop/refunds/{shop_refund_id}` answers the same
 * object. Partial refunds are allowed, several per order, up to the order's paid_minor.
 */
export const cRefundRequestSchema = z.object({
  shop_refund_id: z.string().min(1).max(255),
  order_id: z.string().min(1),
  amount_minor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  currency_code: z.string().length(3),
  reason: z.string().max(255).optional(),
});

const C_REFUND_STATES = ["REFUNDED", "PROCESSING", "REJECTED"] as const;

/** A refund as C answers it (and as the adapter reads it). */
export const cRefundSchema = z.object({
  refund: z.object({
    id: z.string(),
    shop_refund_id: z.string(),
    order_id: z.string(),
    state: z.enum(C_REFUND_STATES),
    amount_minor: z.number().int().nonnegative(),
    currency_code: z.string(),
    rejection_reason: z.string().optional(),
  }),
});

export type CRefund = z.infer<typeof cRefundSchema>["refund"];

/** The token of `Authorization: Basic <token>`. */
export function basicToken(login: string, password: string): string {
  return Buffer.from(`${login}:${password}`).toString("base64");
}

/** Login and password of an `Authorization: Basic …` header; undefined when it is not one. */
export function readBasicAuthorization(header: string | null): { login: string; password: string } | undefined {
  const match = /^Basic\s+(.+)$/i.exec(header ?? "");
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export const C_CALLBACK_HEADERS = { id: "x-callback-id", time: "x-callback-time", signature: "x-callback-signature" } as const;

export function callbackSignature(password: string, id: string, time: number, rawBody: string): string {
  return hmac("sha256", password, `${id}|${time}|${rawBody}`, "base64");
}

/**
 * Saved cards, in C's style (a payer object, integers, an expiry as "YYYY-MM"): an order with
 * `payer.save_card: true` keeps the card once paid and answers `order.stored_card` (`card_token`
 * `C-CARD-…`, `masked_pan` "•••• 4242", `expiry` "2030-12", `scheme`); an order with
 * `payer.stored_card: { card_token }` instead of `payer.card` pays with it (no CVC).
 * `POST /shop/stored-cards/remove` with `{ card_token }` forgets it: 204, or 404 `unknown_card`.
 */
const cStoredCardSchema = z.object({
  card_token: z.string(),
  masked_pan: z.string(),
  expiry: z.string().regex(/^\d{4}-\d{2}$/),
  scheme: z.string().nullable().optional(),
});

type CStoredCard = z.infer<typeof cStoredCardSchema>;

export const cRemoveStoredCardSchema = z.object({ card_token: z.string().min(1).max(64) });

export const C_CARD_TOKEN_PREFIX = "C-CARD-";

/**
 * Authorize now, capture later, in C's style (HTTP Basic, integers in minor units, UPPER_CASE
 * states, the shop's own id as the idempotency key). An order with `capture_mode: "MANUAL"` only
 * reserves the amount: its state is `AUTHORIZED` with `authorized_minor`, `paid_minor: 0` and
 * `authorization_expires_at` (ISO 8601). C captures only the whole authorization. Then one of:
 * - `POST /shop/captures` `{ shop_capture_id, order_id, amount_minor, currency_code }` → 201
 *   `{ capture: { id, shop_capture_id, order_id, state: "CAPTURED" | "REJECTED", amount_minor,
 *   currency_code, rejection_reason? } }` (200 when the shop_capture_id was taken before); a part of
 *   the authorization is `REJECTED` with `PARTIAL_CAPTURE_NOT_SUPPORTED`;
 * - `POST /shop/cancellations` `{ shop_cancellation_id, order_id }` → `{ cancellation: { id,
 *   shop_cancellation_id, order_id, state: "CANCELLED" | "REJECTED", rejection_reason? } }`.
 * `GET /shop/captures/{shop_capture_id}` and `GET /shop/cancellations/{shop_cancellation_id}` answer
 * the same objects later.
 */
export const cCaptureRequestSchema = z.object({
  shop_capture_id: z.string().min(1).max(255),
  order_id: z.string().min(1),
  amount_minor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  currency_code: z.string().length(3),
});

export const cCaptureSchema = z.object({
  capture: z.object({
    id: z.string(),
    shop_capture_id: z.string(),
    order_id: z.string(),
    state: z.enum(["CAPTURED", "REJECTED"]),
    amount_minor: z.number().int().nonnegative(),
    currency_code: z.string(),
    rejection_reason: z.string().optional(),
  }),
});

export type CCapture = z.infer<typeof cCaptureSchema>["capture"];

export const cCancellationRequestSchema = z.object({ shop_cancellation_id: z.string().min(1).max(255), order_id: z.string().min(1) });

export const cCancellationSchema = z.object({
  cancellation: z.object({
    id: z.string(),
    shop_cancellation_id: z.string(),
    order_id: z.string(),
    state: z.enum(["CANCELLED", "REJECTED"]),
    rejection_reason: z.string().optional(),
  }),
});

export type CCancellation = z.infer<typeof cCancellationSchema>["cancellation"];

/**
 * Disputes (not in the spec; designed in C's style: HTTP Basic, minor-unit integers, upper-case
 * states, answers wrapped `{ dispute: … }`). C tells of a dispute of one of its orders by
 * notification (`{ callback_id, dispute }`); then:
 * - `GET /shop/disputes/{id}`: the dispute as it is now;
 * - `POST /shop/disputes/{id}/evidence` `{ shop_submission_id, evidence: { product_description?,
 *   customer_communication?, shipping_tracking?, refund_policy?, explanation? }, documents: [{
 *   file_name, content_type, content_base64 }] }`: `shop_submission_id` is the idempotency key
 *   (the service's dispute id);
 * - `POST /shop/disputes/{id}/accept` `{ shop_submission_id }`.
 * Each answers `{ dispute }`: `id`, the order's `order_id` and `shop_order_id`, `state`
 * (NEEDS_RESPONSE | UNDER_REVIEW | WON | LOST | ACCEPTED), C's `reason` (../mapping.ts),
 * `amount_minor`, `currency_code`, `respond_by` (ISO 8601). Too late or no longer open: 422 with
 * `error.code` `response_period_over` or `dispute_not_open`.
 */
const C_DISPUTE_STATES = ["NEEDS_RESPONSE", "UNDER_REVIEW", "WON", "LOST", "ACCEPTED"] as const;

export const cDisputeSchema = z.object({
  dispute: z.object({
    id: z.string().min(1),
    order_id: z.string(),
    shop_order_id: z.string().optional(),
    state: z.enum(C_DISPUTE_STATES),
    reason: z.string(),
    amount_minor: z.number().int().nonnegative(),
    currency_code: z.string().length(3),
    respond_by: z.string(),
  }),
});

export type CDispute = z.infer<typeof cDisputeSchema>["dispute"];

const cText = z.string().max(20_000).optional();

export const cDisputeEvidenceSchema = z.object({
  shop_submission_id: z.string().min(1).max(255),
  evidence: z.object({ product_description: cText, customer_communication: cText, shipping_tracking: cText, refund_policy: cText, explanation: cText }),
  documents: z
    .array(z.object({ file_name: z.string().max(255), content_type: z.string().max(255), content_base64: z.string() }))
    .max(20)
    .default([]),
});

export const cDisputeAcceptSchema = z.object({ shop_submission_id: z.string().min(1).max(255) });

import "server-only";
import { timingSafeEqual } from "node:crypto";
import { hmac } from "@/lib/providers/kit/callback-scheme";

/**
 * Provider F's wire format, shared by its adapter and its sandbox. F is a resource API in
 * snake_case: `charge` objects with integer cents and lower-case currencies, statuses
 * `succeeded` / `requires_action` / `failed`, and errors `{ error: { type, code, message } }`.
 *
 * Authentication (spec 5.2): every request carries the public key in `x-merchant-id` and
 * `x-signature: hex HMAC-SHA256(secret_key, raw body)` (the empty string for a GET). A request
 * without x-merchant-id, with a public key F does not know, or with a bad signature is answered
 * 401, on every path. Test mode takes dev_ keys, live prod_ keys.
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
} as const;

export type FCardSource = { type: "card"; card: { number: string; exp_month: number; exp_year: number; cvc?: string; holder_name: string } };
/** options.bypass_hpp: no hosted page and no card; F collects the card itself. */
export type FBypassSource = { type: "hpp_bypass" };

export type FChargeRequest = {
  amount: number;
  currency: string;
  reference: string;
  partial_capture: boolean;
  payment_method: FCardSource | FBypassSource;
  customer: Record<string, unknown>;
  return_url: string;
  metadata: { invoice_id: string; tokenize: boolean };
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
};

export type FErrorCode = "missing_merchant_id" | "unknown_merchant_id" | "invalid_signature" | "processor_unavailable" | "resource_missing" | "invalid_request";

export type FError = { error: { type: "authentication_error" | "api_error" | "invalid_request_error"; code: FErrorCode; message: string } };

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

import "server-only";
import { z } from "zod";
import { hmac } from "@/lib/providers/kit/callback-scheme";

/**
 * Provider B's wire format, shared by its adapter, its callbacks and its sandbox. The terminal API
 * v1 takes flat, form-like JSON (every value a string) naming the terminal; `order_ref` is the
 * idempotency key. B echoes the customer it received (`received_customer`), so the attempt log
 * shows the defaults of spec 2.6 arriving.
 *
 * Authentication: `X-Terminal: <terminal_id>` and `X-Signature: t=<unix seconds>,v1=<hex>`, the
 * HMAC-SHA256 with the terminal's secret key of `${t}.${raw body}`. B's charge notifications carry
 * `X-Notification-Id` and `X-Notification-Signature` in the same form, over `${t}.${notification id}.${raw body}`.
 *
 * A terminal B does not know and a signature that does not match get one and the same 401
 * (`B_SIGN_IN_REFUSAL`): telling them apart would tell anyone which terminal IDs exist. A missing
 * or stale signature is refused before any terminal is looked up (`missing_signature`,
 * `stale_timestamp`).
 */

export const B_HEADERS = { terminal: "x-terminal", signature: "x-signature" } as const;
export const B_CALLBACK_HEADERS = { id: "x-notification-id", signature: "x-notification-signature" } as const;

/** B's one answer to an unknown terminal and to a signature that does not match (HTTP 401, `{ result: "error", error_code, error_text }`). */
export const B_SIGN_IN_REFUSAL = { error_code: "auth_failed", error_text: "X-Terminal or X-Signature is wrong." } as const;

export const B_RESULTS = ["ok", "partial", "fail", "3ds", "wait", "auth"] as const;

/** A charge request (the adapter sends it, the sandbox reads it). */
export const bChargeSchema = z.object({
  terminal_id: z.string(),
  order_ref: z.string().min(1).max(255),
  description: z.string().optional(),
  sum: z.string(),
  cur: z.string().length(3),
  partial: z.enum(["0", "1"]).default("0"),
  pan: z
    .string()
    .regex(/^\d{12,19}$/)
    .optional(),
  exp: z
    .string()
    .regex(/^\d{2}\/\d{2}$/)
    .optional(),
  cvc: z.string().optional(),
  holder_name: z.string().optional(),
  lang: z.string().optional(),
  customer: z.record(z.string(), z.unknown()).default({}),
  back_url: z.string().optional(),
  /** "0": authorize only (see "Authorize now, capture later" below); "1" or absent: a sale. */
  capture: z.enum(["0", "1"]).default("1"),
  /** Saved cards (below): "1" keeps the card once the charge succeeds. */
  save_card: z.enum(["0", "1"]).optional(),
  /** Saved cards: charge the card kept behind this token instead of `pan`. */
  card_token: z.string().min(1).max(64).optional(),
  /**
   * 3-D Secure on request: "1" makes B authenticate the customer (`result: "3ds"` with `acs_url`, or a
   * frictionless approval at once); "0" or absent: B decides (its sandbox: only 4000 0000 0000 3220).
   */
  force_3ds: z.enum(["0", "1"]).optional(),
});

/** A charge as the adapter reads B's answer. */
export const bAnswerSchema = z.object({
  result: z.enum(B_RESULTS),
  txn: z.string(),
  cur: z.string(),
  captured_sum: z.string().optional(),
  error_code: z.string().optional(),
  error_text: z.string().optional(),
  acs_url: z.string().optional(),
  /** An authorization (`result: "auth"`): what was reserved and until when (ISO 8601). */
  authorized_sum: z.string().optional(),
  auth_until: z.string().optional(),
  card_token: z.string().optional(),
  card_last4: z.string().optional(),
  card_exp: z.string().optional(),
  card_brand: z.string().optional(),
});

export type BCharge = z.infer<typeof bAnswerSchema>;

/**
 * A refund (`POST /v1/refunds`, not shown in the spec; designed in B's style): flat strings naming
 * the terminal, the charge's `txn`, and `refund_ref`, the idempotency key (the service's refund id).
 * `GET /v1/refunds/{refund_ref}` answers the same object. Partial refunds are allowed, several per
 * charge, up to what was captured.
 */
export const bRefundSchema = z.object({
  terminal_id: z.string(),
  refund_ref: z.string().min(1).max(255),
  txn: z.string().min(1),
  sum: z.string(),
  cur: z.string().length(3),
  reason: z.string().max(255).optional(),
});

const B_REFUND_RESULTS = ["ok", "wait", "fail"] as const;

/** A refund as B answers it (and as the adapter reads it). */
export const bRefundAnswerSchema = z.object({
  result: z.enum(B_REFUND_RESULTS),
  refund_txn: z.string(),
  refund_ref: z.string(),
  txn: z.string(),
  sum: z.string(),
  cur: z.string(),
  error_code: z.string().optional(),
  error_text: z.string().optional(),
});

export type BRefund = z.infer<typeof bRefundAnswerSchema>;

/** What the sandbox answers about a charge. */
export type BAnswer = {
  result: "ok" | "partial" | "fail" | "3ds" | "auth";
  txn: string;
  order_ref: string;
  sum: string;
  cur: string;
  captured_sum?: string;
  error_code?: string;
  error_text?: string;
  acs_url?: string;
  authorized_sum?: string;
  auth_until?: string;
  /** What B received about the customer, echoed back (spec 2.6). */
  received_customer: Record<string, unknown>;
  received_lang: string | null;
} & BSavedCardFields;

/** B's one HMAC: hex HMAC-SHA256 with the secret key of the parts joined by dots. */
export function bDigest(secret: string, ...parts: readonly (string | number)[]): string {
  return hmac("sha256", secret, parts.join("."));
}

/** `t=…,v1=…`: the HMAC binds the body to a moment, so a captured request cannot be replayed later. */
export const signatureHeader = (timestamp: number, digest: string) => `t=${timestamp},v1=${digest}`;

/** A request's `X-Signature`. */
export function signB(secret: string, timestamp: number, rawBody: string): string {
  return signatureHeader(timestamp, bDigest(secret, timestamp, rawBody));
}

/** The parts of a `t=…,v1=…` header; a part that is not there is undefined (a `t` that is no integer too). */
export function readSignatureHeader(header: string): { timestamp: number | undefined; digest: string | undefined } {
  const parts = new Map(header.split(",").map((part) => part.trim().split("=", 2) as [string, string]));
  const timestamp = Number(parts.get("t"));
  return { timestamp: Number.isInteger(timestamp) ? timestamp : undefined, digest: parts.get("v1") };
}

/**
 * Authorize now, capture later (not in the spec, designed in B's style). A charge with
 * `capture: "0"` only reserves the sum: B answers `result: "auth"` with `authorized_sum` and
 * `auth_until` (when the hold lapses). Then one of:
 * - `POST /v1/captures` `{ terminal_id, capture_ref, txn, sum, cur }`: `capture_ref` is the
 *   idempotency key; `sum` at most `authorized_sum`, less releases the rest (`released_sum`);
 * - `POST /v1/voids` `{ terminal_id, void_ref, txn }`: the hold is released, nothing taken.
 * Each answers `{ result: "ok" | "fail", …_txn, …_ref, txn, error_code?, error_text? }`, and
 * `GET /v1/captures/{capture_ref}`, `GET /v1/voids/{void_ref}` answer the same object later.
 */
export const bCaptureSchema = z.object({
  terminal_id: z.string(),
  capture_ref: z.string().min(1).max(255),
  txn: z.string().min(1),
  sum: z.string(),
  cur: z.string().length(3),
});

export const bCaptureAnswerSchema = z.object({
  result: z.enum(["ok", "fail"]),
  capture_txn: z.string(),
  capture_ref: z.string(),
  txn: z.string(),
  sum: z.string(),
  cur: z.string(),
  released_sum: z.string().optional(),
  error_code: z.string().optional(),
  error_text: z.string().optional(),
});

export type BCapture = z.infer<typeof bCaptureAnswerSchema>;

export const bVoidSchema = z.object({
  terminal_id: z.string(),
  void_ref: z.string().min(1).max(255),
  txn: z.string().min(1),
});

export const bVoidAnswerSchema = z.object({
  result: z.enum(["ok", "fail"]),
  void_txn: z.string(),
  void_ref: z.string(),
  txn: z.string(),
  error_code: z.string().optional(),
  error_text: z.string().optional(),
});

export type BVoid = z.infer<typeof bVoidAnswerSchema>;

/**
 * Saved cards, in B's flat style: a charge with `save_card: "1"` keeps the card once it succeeds and
 * answers four more strings, `card_token` (`bct_…`), `card_last4`, `card_exp` (MM/YY) and
 * `card_brand`; a charge with `card_token` instead of `pan`/`exp`/`holder_name` charges that card
 * (no CVC). `POST /v1/cards/forget` with `{ terminal_id, card_token }` forgets it: `{ result: "ok" }`,
 * or 404 `unknown_card_token` when the terminal has no such token. The token travels in bodies
 * only, never in a path, so no log line carries it.
 */
type BSavedCardFields = { card_token?: string; card_last4?: string; card_exp?: string; card_brand?: string };

export const bForgetCardSchema = z.object({ terminal_id: z.string(), card_token: z.string().min(1).max(64) });

export const B_CARD_TOKEN_PREFIX = "bct_";

/**
 * Disputes (not in the spec; designed in B's style: flat string values naming the terminal, signed
 * like every request). B tells of a dispute of one of its charges by notification
 * (`event: "dispute.updated"`, the dispute as below); then:
 * - `GET /v1/disputes/{dispute_txn}`: the dispute as it is now;
 * - `POST /v1/disputes/evidence` `{ terminal_id, dispute_txn, evidence_ref, product_description?,
 *   customer_communication?, shipping_tracking?, refund_policy?, explanation?, attachments? }`:
 *   `evidence_ref` is the idempotency key (the service's dispute id), each attachment flat strings
 *   `{ name, type, data }` (data base64);
 * - `POST /v1/disputes/accept` `{ terminal_id, dispute_txn, accept_ref }`.
 * Each answers the dispute: `result` (open | review | won | lost | accepted), `dispute_txn`, the
 * charge's `txn` and `order_ref`, `sum`, `cur`, B's `reason_code` and `respond_by` (ISO 8601). Too
 * late or no longer open: 422 with `error_code` `respond_by_passed` or `dispute_closed` (../mapping.ts).
 */
const B_DISPUTE_RESULTS = ["open", "review", "won", "lost", "accepted"] as const;

export const bDisputeSchema = z.object({
  result: z.enum(B_DISPUTE_RESULTS),
  dispute_txn: z.string().min(1),
  txn: z.string(),
  order_ref: z.string().optional(),
  sum: z.string(),
  cur: z.string().length(3),
  reason_code: z.string(),
  respond_by: z.string(),
});

export type BDispute = z.infer<typeof bDisputeSchema>;

const bText = z.string().max(20_000).optional();

export const bDisputeEvidenceSchema = z.object({
  terminal_id: z.string(),
  dispute_txn: z.string().min(1),
  evidence_ref: z.string().min(1).max(255),
  product_description: bText,
  customer_communication: bText,
  shipping_tracking: bText,
  refund_policy: bText,
  explanation: bText,
  attachments: z
    .array(z.object({ name: z.string().max(255), type: z.string().max(255), data: z.string() }))
    .max(20)
    .default([]),
});

export const bDisputeAcceptSchema = z.object({ terminal_id: z.string(), dispute_txn: z.string().min(1), accept_ref: z.string().min(1).max(255) });

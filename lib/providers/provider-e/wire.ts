import "server-only";
import { createHash, createSign, createVerify } from "node:crypto";
import { z } from "zod";

/**
 * Provider E's wire format, shared by its adapter and its sandbox. E is a REST API in camelCase:
 * amounts are `{ value: "75.00", currency: "EUR" }` in major units, results carry a `resultCode`
 * and, when refused, a `refusalReason` in words; errors are `{ status, errorCode, message }`.
 *
 * Authentication (spec 5.1 note 5: the merchant made the key pair and shared the public key):
 * every request is signed with the merchant's private key, RSA-SHA256 (PKCS#1 v1.5) over
 *   `${METHOD}\n${path with query}\n${X-Timestamp}\n${hex SHA-256 of the raw body}`
 * and sent as `Authorization: Signature keyId="<merchant_id>",algorithm="rsa-sha256",signature="<base64>"`
 * with `X-Timestamp: <unix seconds>`. E verifies with the public key it holds for that merchant
 * and refuses a timestamp more than five minutes off. A keyId E does not know and a signature that
 * does not verify get one and the same 401 (`E_SIGN_IN_REFUSAL`): telling them apart would tell
 * anyone which merchant IDs exist.
 *
 * E signs its notifications with its own key (Ed25519): `X-E-Signature: ed25519=<base64>` over
 * `${X-E-Notification-Id}\n${X-E-Timestamp}\n${hex SHA-256 of the raw body}`.
 */

export const E_MAX_CLOCK_SKEW_SECONDS = 300;

export const E_PATHS = {
  payments: "/v2/payments",
  payment: (paymentId: string) => `/v2/payments/${encodeURIComponent(paymentId)}`,
  byReference: (merchantReference: string) => `/v2/payments?merchantReference=${encodeURIComponent(merchantReference)}`,
  refunds: "/v2/refunds",
  refund: (refundId: string) => `/v2/refunds/${encodeURIComponent(refundId)}`,
  refundByReference: (merchantReference: string) => `/v2/refunds?merchantReference=${encodeURIComponent(merchantReference)}`,
  merchant: "/v2/merchant",
  captures: (paymentId: string) => `/v2/payments/${encodeURIComponent(paymentId)}/captures`,
  captureByReference: (merchantReference: string) => `/v2/captures?merchantReference=${encodeURIComponent(merchantReference)}`,
  cancels: (paymentId: string) => `/v2/payments/${encodeURIComponent(paymentId)}/cancels`,
  cancelByReference: (merchantReference: string) => `/v2/cancels?merchantReference=${encodeURIComponent(merchantReference)}`,
  dispute: (disputeId: string) => `/v2/disputes/${encodeURIComponent(disputeId)}`,
  disputeDefend: (disputeId: string) => `/v2/disputes/${encodeURIComponent(disputeId)}/defend`,
  disputeAccept: (disputeId: string) => `/v2/disputes/${encodeURIComponent(disputeId)}/accept`,
} as const;

type EAmount = { value: string; currency: string };

export const E_RESULT_CODES = ["Authorised", "PartiallyAuthorised", "Refused", "RedirectShopper", "Error"] as const;
type EResultCode = (typeof E_RESULT_CODES)[number];

export type EPaymentRequest = {
  merchantReference: string;
  amount: EAmount;
  allowPartialCapture: boolean;
  paymentMethod: { type: "scheme"; number: string; expiryMonth: string; expiryYear: string; cvc?: string; holderName: string };
  shopper: EShopper;
  returnUrl: string;
  metadata: { invoiceId: string };
  /** Authorize now, capture later (below): "manual" only reserves the amount. */
  captureMode?: "manual" | "automatic";
  /**
   * 3-D Secure on request: `attemptAuthentication: "always"` makes E authenticate the shopper
   * (resultCode RedirectShopper, or Authorised at once when frictionless); absent: E decides (its
   * sandbox: only 4000 0000 0000 3220).
   */
  authenticationData?: { attemptAuthentication: "always" | "never" };
};

export type EShopper = {
  reference?: string;
  name?: string;
  email?: string;
  phone?: string;
  dateOfBirth?: string;
  address?: { country?: string; city?: string; fullAddress?: string };
};

export type EPayment = {
  paymentId: string;
  merchantReference: string;
  resultCode: EResultCode;
  refusalReason?: string;
  amount: EAmount;
  capturedAmount: EAmount;
  action?: { type: "redirect"; method: "GET"; url: string };
  /** An authorization (`captureMode: "manual"`): what is reserved and until when (ISO 8601). */
  captureMode?: "manual";
  authorisedAmount?: EAmount;
  authorisationExpiresAt?: string;
};

/**
 * A refund (`POST /v2/refunds`, not shown in the spec; designed in E's style): camelCase, signed
 * like every request, naming E's `paymentId`, with `merchantReference` the idempotency key (the
 * service's refund id: the same refund sent twice is one refund) and the amount in major units.
 * Partial refunds are allowed, several per payment, up to what was captured. The answer is the
 * refund: E's `refundId`, a `resultCode` (Refunded, Received: settles later, Refused with a
 * `refusalReason` in words, see ../mapping.ts). `GET /v2/refunds/{refundId}` and
 * `GET /v2/refunds?merchantReference=…` answer the same object, or 404 not_found when E never
 * received the refund.
 */
const amountSchema = z.object({ value: z.string(), currency: z.string().length(3) });

export const eRefundSchema = z.object({
  paymentId: z.string().min(1),
  merchantReference: z.string().min(1).max(255),
  amount: amountSchema,
  reason: z.string().max(255).optional(),
});

export type ERefundRequest = z.input<typeof eRefundSchema>;

const E_REFUND_RESULT_CODES = ["Refunded", "Received", "Refused"] as const;

/** A refund as E answers it (and as the adapter reads it). */
export const eRefundAnswerSchema = z.object({
  refundId: z.string().min(1),
  paymentId: z.string(),
  merchantReference: z.string(),
  resultCode: z.enum(E_REFUND_RESULT_CODES),
  refusalReason: z.string().optional(),
  amount: amountSchema,
});

export type ERefund = z.infer<typeof eRefundAnswerSchema>;

export type EErrorCode =
  | "unauthorized"
  | "stale_timestamp"
  | "missing_signature"
  | "unavailable"
  | "not_found"
  | "validation"
  | "not_captured"
  | "reference_in_use"
  | "currency_mismatch"
  | "defense_period_ended"
  | "dispute_not_open";

export type EError = { status: number; errorCode: EErrorCode; message: string };

/** E's one answer to an unknown merchant (keyId) and to a signature that does not verify. */
export const E_SIGN_IN_REFUSAL = { status: 401, errorCode: "unauthorized", message: "The keyId or the signature is wrong." } as const satisfies EError;

const bodyHash = (rawBody: string) => createHash("sha256").update(rawBody, "utf8").digest("hex");

export function signingText(method: string, pathWithQuery: string, timestamp: string, rawBody: string): string {
  return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${bodyHash(rawBody)}`;
}

export function signE(privateKeyPem: string, text: string): string {
  return createSign("sha256").update(text, "utf8").sign(privateKeyPem, "base64");
}

export function verifyE(publicKeyPem: string, text: string, signature: string): boolean {
  try {
    return createVerify("sha256").update(text, "utf8").verify(publicKeyPem, signature, "base64");
  } catch {
    return false;
  }
}

export function authorizationHeader(merchantId: string, signature: string): string {
  return `Signature keyId="${merchantId}",algorithm="rsa-sha256",signature="${signature}"`;
}

/** keyId and signature of an `Authorization: Signature …` header; undefined when it is not one. */
export function readAuthorization(header: string | null): { keyId: string; signature: string } | undefined {
  if (!header?.startsWith("Signature ")) return undefined;
  const fields = Object.fromEntries([...header.slice(10).matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]));
  return fields.keyId && fields.signature ? { keyId: fields.keyId, signature: fields.signature } : undefined;
}

export const E_CALLBACK_HEADERS = { id: "x-e-notification-id", timestamp: "x-e-timestamp", signature: "x-e-signature" } as const;

export function callbackSigningText(id: string, timestamp: number, rawBody: string): string {
  return `${id}\n${timestamp}\n${bodyHash(rawBody)}`;
}

export const callbackSignatureHeader = (signature: string) => `ed25519=${signature}`;

/** The base64 signature of an `X-E-Signature` header; undefined when it is not one. */
export const readCallbackSignature = (header: string | null) => /^ed25519=(.+)$/.exec(header ?? "")?.[1];

/**
 * Authorize now, capture later, in E's style (camelCase, amounts `{ value, currency }` in major
 * units, `merchantReference` the idempotency key, refusals in words). A payment with
 * `captureMode: "manual"` only reserves the amount: E answers `resultCode: "Authorised"` with
 * `captureMode: "manual"`, `authorisedAmount`, `capturedAmount` 0 and `authorisationExpiresAt`.
 * E captures only the whole authorization. Then one of:
 * - `POST /v2/payments/{paymentId}/captures` `{ merchantReference, amount }` → `{ captureId,
 *   paymentId, merchantReference, status: "Captured" | "Refused", refusalReason?, amount }`; a
 *   part of the authorization is Refused ("Partial capture not supported");
 * - `POST /v2/payments/{paymentId}/cancels` `{ merchantReference }` → `{ cancelId, paymentId,
 *   merchantReference, status: "Cancelled" | "Refused", refusalReason? }`.
 * `GET /v2/captures?merchantReference=…` and `GET /v2/cancels?merchantReference=…` answer the same
 * objects later, or 404 not_found when E never received them.
 */
export const eCaptureSchema = z.object({ merchantReference: z.string().min(1).max(255), amount: amountSchema });

export const eCaptureAnswerSchema = z.object({
  captureId: z.string().min(1),
  paymentId: z.string(),
  merchantReference: z.string(),
  status: z.enum(["Captured", "Refused"]),
  refusalReason: z.string().optional(),
  amount: amountSchema,
});

export type ECapture = z.infer<typeof eCaptureAnswerSchema>;

export const eCancelSchema = z.object({ merchantReference: z.string().min(1).max(255) });

export const eCancelAnswerSchema = z.object({
  cancelId: z.string().min(1),
  paymentId: z.string(),
  merchantReference: z.string(),
  status: z.enum(["Cancelled", "Refused"]),
  refusalReason: z.string().optional(),
});

export type ECancel = z.infer<typeof eCancelAnswerSchema>;

/**
 * Disputes (not in the spec; designed in E's style: camelCase, signed, amounts `{ value, currency }`
 * in major units, statuses in words). E tells of a dispute of one of its payments by notification
 * (`eventCode: "DISPUTE_UPDATE"` with `dispute` as below); then:
 * - `GET /v2/disputes/{disputeId}`: the dispute as it is now;
 * - `POST /v2/disputes/{disputeId}/defend` `{ merchantReference, defenseText: { productDescription?,
 *   customerCommunication?, shippingTracking?, refundPolicy?, explanation? }, defenseDocuments: [{
 *   fileName, contentType, content }] }` (content base64): `merchantReference` is the idempotency
 *   key (the service's dispute id);
 * - `POST /v2/disputes/{disputeId}/accept` `{ merchantReference }`.
 * Each answers the dispute: `disputeId`, the payment's `paymentId` and `paymentMerchantReference`,
 * `status` (Undefended | Pending | Won | Lost | Accepted), E's `reasonCode` (../mapping.ts),
 * `amount`, `defenseDueDate` (ISO 8601). Too late or no longer open: 422 `defense_period_ended` or
 * `dispute_not_open`.
 */
const E_DISPUTE_STATUSES = ["Undefended", "Pending", "Won", "Lost", "Accepted"] as const;

export const eDisputeSchema = z.object({
  disputeId: z.string().min(1),
  paymentId: z.string(),
  paymentMerchantReference: z.string().optional(),
  status: z.enum(E_DISPUTE_STATUSES),
  reasonCode: z.string(),
  amount: z.object({ value: z.string(), currency: z.string().length(3) }),
  defenseDueDate: z.string(),
});

export type EDispute = z.infer<typeof eDisputeSchema>;

const eText = z.string().max(20_000).optional();

export const eDisputeDefenseSchema = z.object({
  merchantReference: z.string().min(1).max(255),
  defenseText: z.object({ productDescription: eText, customerCommunication: eText, shippingTracking: eText, refundPolicy: eText, explanation: eText }),
  defenseDocuments: z
    .array(z.object({ fileName: z.string().max(255), contentType: z.string().max(255), content: z.string() }))
    .max(20)
    .default([]),
});

export const eDisputeAcceptSchema = z.object({ merchantReference: z.string().min(1).max(255) });

import "server-only";
import { formatMinor } from "@/lib/money";
import type { z } from "zod";
import type {
  AdapterContext,
  CancelPayoutOutcome,
  CaptureInstruction,
  CaptureOutcome,
  DisputeEvidenceInstruction,
  PaymentInstruction,
  PayoutInstruction,
  ProviderAdapter,
  ProviderOutcome,
  RefundInstruction,
  RefundOutcome,
  TokenPaymentInstruction,
  VoidInstruction,
  VoidOutcome,
} from "@/lib/providers/kit/adapter";
import { readAuthorizationAnswer, readAuthorizationTransport } from "../server/authorization-answers";
import { callProvider } from "@/lib/providers/kit/provider-http";
import {
  credentialOf,
  findErrorCode,
  hideFromLog,
  readHealth,
  readRefundStatusTransport,
  readRefundTransport,
  readStatusTransport,
  readTokenDelete,
  readTransport,
  unreadableAnswer,
  unreadableRefundAnswer,
} from "../server/provider-answers";
import { readDisputeAction, readDisputeStatus } from "../server/dispute-answers";
import { cancelOutcomeOf, captureOutcomeOf, disputeRefusalOf, disputeReportOf, outcomeOf, refundOutcomeOf, voidOutcomeOf } from "./mapping";
import {
  A_SIGN_IN_REFUSAL,
  A_SIGNATURE_HEADER,
  A_THREE_DS_REQUIRED,
  aAnswerSchema,
  aCaptureAnswerSchema,
  aDisputeSchema,
  aRefundAnswerSchema,
  aVoidAnswerSchema,
  signBody,
  type aCaptureRequestSchema,
  type aDisputeAcceptSchema,
  type aDisputeEvidenceSchema,
  type aRefundRequestSchema,
  type aVoidRequestSchema,
} from "./wire";

/**
 * Provider A's client for API v2 (wire format and signing in ./wire.ts, what answers mean in
 * ./mapping.ts). `request_id` is the idempotency key: the same id twice is one payment, payout or
 * refund, and the status endpoint finds it by that id (a refund's with `operation: "refund"`).
 */

async function post(context: AdapterContext, endpoint: string, payload: Record<string, unknown>) {
  const body = JSON.stringify({ merchant_id: credentialOf(context, "merchant_id"), service_code: credentialOf(context, "service_code"), ...payload });
  let signature: string;
  try {
    signature = signBody(body, credentialOf(context, "private_key"));
  } catch {
    // An unusable private key is a refused credential, not a crash of the attempt.
    return { kind: "answered", status: 401, headers: new Headers(), body: { error: { code: "unusable_private_key" } }, text: "" } as const;
  }
  return callProvider(context, { method: "POST", path: `/api/v2/${endpoint}`, rawBody: body, headers: { [A_SIGNATURE_HEADER]: signature } });
}

async function send(context: AdapterContext, endpoint: string, payload: Record<string, unknown>): Promise<ProviderOutcome> {
  const response = await post(context, endpoint, payload);
  const read = endpoint === "status" ? readStatusTransport(response) : readTransport(response);
  if ("outcome" in read) return read.outcome;
  const parsed = aAnswerSchema.safeParse(read.answer.body);
  return parsed.success ? outcomeOf(parsed.data) : unreadableAnswer(read.answer);
}

function createPayment(context: AdapterContext, instruction: PaymentInstruction): Promise<ProviderOutcome> {
  const { card } = instruction;
  hideFromLog(context.exchanges, [card.number, card.cvc]);
  return send(context, "payments", {
    request_id: instruction.idempotencyKey,
    order_id: instruction.invoiceId,
    amount: formatMinor(instruction.amountMinor, instruction.currency),
    currency: instruction.currency,
    allow_partial: instruction.allowPartially,
    card_credentials: {
      number: card.number,
      exp_month: String(card.expiryMonth).padStart(2, "0"),
      exp_year: String(card.expiryYear),
      ...(card.cvc ? { cvv: card.cvc } : {}),
      holder: card.holder,
    },
    customer: instruction.customer,
    return_url: instruction.returnUrl,
    ...(instruction.authorizeOnly ? { capture: false } : {}),
    ...(instruction.tokenize ? { tokenize: true } : {}),
    ...(instruction.requireThreeDs ? { three_ds: A_THREE_DS_REQUIRED } : {}),
  });
}

function createPayout(context: AdapterContext, instruction: PayoutInstruction): Promise<ProviderOutcome> {
  hideFromLog(context.exchanges, [instruction.cardNumber]);
  return send(context, "payouts", {
    request_id: instruction.idempotencyKey,
    order_id: instruction.invoiceId,
    amount: formatMinor(instruction.amountMinor, instruction.currency),
    currency: instruction.currency,
    allow_partial: instruction.allowPartially,
    split: instruction.splitMode,
    recipient: { card_number: instruction.cardNumber, ...instruction.customer },
  });
}

/** A refund or its status request: refunds are answered with a refund object of their own. */
async function sendRefund(context: AdapterContext, endpoint: "refunds" | "status", payload: Record<string, unknown>): Promise<RefundOutcome> {
  const response = await post(context, endpoint, payload);
  const read = endpoint === "status" ? readRefundStatusTransport(response) : readRefundTransport(response);
  if ("outcome" in read) return read.outcome;
  const parsed = aRefundAnswerSchema.safeParse(read.answer.body);
  return parsed.success ? refundOutcomeOf(parsed.data) : unreadableRefundAnswer(read.answer);
}

function refund(context: AdapterContext, instruction: RefundInstruction): Promise<RefundOutcome> {
  const payload: z.input<typeof aRefundRequestSchema> = {
    request_id: instruction.refundId,
    transaction_id: instruction.paymentReference,
    amount: formatMinor(instruction.amountMinor, instruction.currency),
    currency: instruction.currency,
    ...(instruction.reason ? { reason: instruction.reason.slice(0, 255) } : {}),
  };
  return sendRefund(context, "refunds", payload);
}

/**
 * A payout cancel: 409 `payout_final` is "too late" (a status request tells how it ended); a cancel
 * not taken (not sent, refused credentials, 429, 503) changed nothing; no answer is unknown.
 */
async function cancelPayout(context: AdapterContext, query: { idempotencyKey: string }): Promise<CancelPayoutOutcome> {
  const response = await post(context, "payouts/cancel", { request_id: query.idempotencyKey });
  if (response.kind === "not_sent") return { kind: "refused", message: response.message };
  if (response.kind === "timed_out") return { kind: "unknown", message: response.message };
  const { status } = response;
  if (status === 409 && findErrorCode(response.body) === "payout_final") return { kind: "too_late", message: "Provider A had already finished the payout." };
  if (status === 401 || status === 403) return { kind: "refused", message: `Provider A refused the credentials (HTTP ${status}).` };
  if (status === 429 || status === 503) return { kind: "refused", message: `Provider A could not take the cancel (HTTP ${status}).` };
  if (status >= 500) return { kind: "unknown", message: `Provider A answered HTTP ${status}; whether the payout stopped is not known yet.` };
  if (status < 200 || status >= 300)
    return {
      kind: "refused",
      message: `Provider A refused the cancel (HTTP ${status}${findErrorCode(response.body) ? `: ${findErrorCode(response.body)}` : ""}).`,
    };
  const parsed = aAnswerSchema.safeParse(response.body);
  return parsed.success
    ? cancelOutcomeOf(parsed.data)
    : { kind: "unknown", message: `Provider A answered HTTP ${status} in a form this service does not understand.` };
}

/** Authorize now, capture later: captures and voids in A's style (./wire.ts), each answered with its own object. */
function readCaptureAnswer(read: ReturnType<typeof readAuthorizationTransport>): CaptureOutcome {
  return readAuthorizationAnswer(read, aCaptureAnswerSchema, captureOutcomeOf);
}

function readVoidAnswer(read: ReturnType<typeof readAuthorizationTransport>): VoidOutcome {
  return readAuthorizationAnswer(read, aVoidAnswerSchema, voidOutcomeOf);
}

async function capture(context: AdapterContext, instruction: CaptureInstruction): Promise<CaptureOutcome> {
  const payload: z.input<typeof aCaptureRequestSchema> = {
    request_id: instruction.captureId,
    transaction_id: instruction.paymentReference,
    amount: formatMinor(instruction.amountMinor, instruction.currency),
    currency: instruction.currency,
  };
  return readCaptureAnswer(readAuthorizationTransport(await post(context, "captures", payload), false));
}

async function voidAuthorization(context: AdapterContext, instruction: VoidInstruction): Promise<VoidOutcome> {
  const payload: z.input<typeof aVoidRequestSchema> = { request_id: instruction.voidId, transaction_id: instruction.paymentReference };
  return readVoidAnswer(readAuthorizationTransport(await post(context, "voids", payload), false));
}

/**
 * The credential Provider A's refusal points at. Its sign-in refusal does not say whether it knew the
 * merchant ID or could not verify the signature, so it blames neither alone (the kind's
 * `refusedTogether` names both); a service code is refused only once the signature verified.
 */
function refusedField(body: unknown): string | undefined {
  const code = findErrorCode(body);
  if (code === A_SIGN_IN_REFUSAL.code) return undefined;
  return code === "unknown_merchant" ? "merchant_id" : code === "invalid_service_code" ? "service_code" : "private_key";
}

export const providerAAdapter: ProviderAdapter = {
  createPayment,
  createPayout,
  cancelPayout,
  getStatus: (context, query) => send(context, "status", { request_id: query.idempotencyKey, operation: query.direction }),
  healthCheck: async (context) => readHealth(await post(context, "ping", { nonce: Date.now().toString(36) }), refusedField),
  refund,
  getRefundStatus: (context, query) => sendRefund(context, "status", { request_id: query.refundId, operation: "refund" }),
  capture,
  getCaptureStatus: async (context, query) =>
    readCaptureAnswer(readAuthorizationTransport(await post(context, "status", { request_id: query.captureId, operation: "capture" }), true)),
  voidAuthorization,
  getVoidStatus: async (context, query) =>
    readVoidAnswer(readAuthorizationTransport(await post(context, "status", { request_id: query.voidId, operation: "void" }), true)),
  tokens: { createPaymentWithToken, deleteToken },
  disputes: {
    getDispute: async (context, query) =>
      readDisputeStatus(await post(context, "status", { operation: "dispute", dispute_id: query.disputeReference }), aDisputeSchema, disputeReportOf),
    submitEvidence,
    accept: async (context, query) => {
      const payload: z.input<typeof aDisputeAcceptSchema> = { request_id: query.disputeId, dispute_id: query.disputeReference };
      return readDisputeAction(await post(context, "disputes/accept", payload), aDisputeSchema, disputeReportOf, disputeRefusalOf);
    },
  },
};

/** Disputes (./wire.ts): the evidence's text fields, and its files as base64 attachments. */
async function submitEvidence(context: AdapterContext, instruction: DisputeEvidenceInstruction) {
  const payload: z.input<typeof aDisputeEvidenceSchema> = {
    request_id: instruction.disputeId,
    dispute_id: instruction.disputeReference,
    evidence: instruction.text,
    attachments: instruction.files.map((file) => ({
      file_name: file.filename,
      content_type: file.contentType,
      sha256: file.sha256,
      content_base64: file.data.toString("base64"),
    })),
  };
  return readDisputeAction(await post(context, "disputes/evidence", payload), aDisputeSchema, disputeReportOf, disputeRefusalOf);
}

/** Saved cards (./wire.ts): the card kept behind `card_token_id` is charged, no card details sent. */
function createPaymentWithToken(context: AdapterContext, instruction: TokenPaymentInstruction): Promise<ProviderOutcome> {
  hideFromLog(context.exchanges, [instruction.cardToken]);
  return send(context, "payments", {
    request_id: instruction.idempotencyKey,
    order_id: instruction.invoiceId,
    amount: formatMinor(instruction.amountMinor, instruction.currency),
    currency: instruction.currency,
    allow_partial: instruction.allowPartially,
    card_token_id: instruction.cardToken,
    customer: instruction.customer,
    return_url: instruction.returnUrl,
    ...(instruction.authorizeOnly ? { capture: false } : {}),
  });
}

async function deleteToken(context: AdapterContext, token: string) {
  hideFromLog(context.exchanges, [token]);
  return readTokenDelete(await post(context, "tokens/delete", { token_id: token }));
}

import "server-only";
import type { z } from "zod";
import { formatMinor } from "@/lib/money";
import type {
  AdapterContext,
  CaptureInstruction,
  CaptureOutcome,
  DisputeEvidenceInstruction,
  PaymentInstruction,
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
import { captureOutcomeOf, disputeRefusalOf, disputeReportOf, outcomeOf, refundOutcomeOf, voidOutcomeOf } from "./mapping";
import {
  B_HEADERS,
  B_SIGN_IN_REFUSAL,
  bAnswerSchema,
  bCaptureAnswerSchema,
  bDisputeSchema,
  bRefundAnswerSchema,
  bVoidAnswerSchema,
  signB,
  type bCaptureSchema,
  type bChargeSchema,
  type bDisputeAcceptSchema,
  type bDisputeEvidenceSchema,
  type bRefundSchema,
  type bVoidSchema,
} from "./wire";

/** Provider B's client for its terminal API v1 (wire format and signing in ./wire.ts, what answers mean in ./mapping.ts). */

function call(context: AdapterContext, method: "GET" | "POST", path: string, body?: Record<string, unknown>) {
  const rawBody = body === undefined ? "" : JSON.stringify({ terminal_id: credentialOf(context, "terminal_id"), ...body });
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    [B_HEADERS.terminal]: credentialOf(context, "terminal_id"),
    [B_HEADERS.signature]: signB(credentialOf(context, "secret_key"), timestamp, rawBody),
  };
  return callProvider(context, { method, path: `/v1/${path}`, headers, ...(body === undefined ? {} : { rawBody }) });
}

function readAnswer(read: ReturnType<typeof readTransport>): ProviderOutcome {
  if ("outcome" in read) return read.outcome;
  const parsed = bAnswerSchema.safeParse(read.answer.body);
  return parsed.success ? outcomeOf(parsed.data) : unreadableAnswer(read.answer);
}

/** Spec 2.6: B takes the language beside the customer, as `lang`. */
function splitLanguage(customer: Record<string, unknown>) {
  const { language, ...rest } = customer;
  return { customer: rest, lang: typeof language === "string" ? language : undefined };
}

async function createPayment(context: AdapterContext, instruction: PaymentInstruction): Promise<ProviderOutcome> {
  const { card } = instruction;
  hideFromLog(context.exchanges, [card.number, card.cvc]);
  const { customer, lang } = splitLanguage(instruction.customer);
  const body: Omit<z.input<typeof bChargeSchema>, "terminal_id"> = {
    order_ref: instruction.idempotencyKey,
    description: instruction.invoiceId,
    sum: formatMinor(instruction.amountMinor, instruction.currency),
    cur: instruction.currency,
    partial: instruction.allowPartially ? "1" : "0",
    pan: card.number,
    exp: `${String(card.expiryMonth).padStart(2, "0")}/${String(card.expiryYear).slice(-2)}`,
    ...(card.cvc ? { cvc: card.cvc } : {}),
    holder_name: card.holder,
    ...(lang ? { lang } : {}),
    customer,
    back_url: instruction.returnUrl,
    ...(instruction.authorizeOnly ? { capture: "0" as const } : {}),
    ...(instruction.tokenize ? { save_card: "1" as const } : {}),
    ...(instruction.requireThreeDs ? { force_3ds: "1" as const } : {}),
  };
  return readAnswer(readTransport(await call(context, "POST", "charges", body)));
}

function readRefundAnswer(read: ReturnType<typeof readRefundTransport>): RefundOutcome {
  if ("outcome" in read) return read.outcome;
  const parsed = bRefundAnswerSchema.safeParse(read.answer.body);
  return parsed.success ? refundOutcomeOf(parsed.data) : unreadableRefundAnswer(read.answer);
}

async function refund(context: AdapterContext, instruction: RefundInstruction): Promise<RefundOutcome> {
  const body: Omit<z.input<typeof bRefundSchema>, "terminal_id"> = {
    refund_ref: instruction.refundId,
    txn: instruction.paymentReference,
    sum: formatMinor(instruction.amountMinor, instruction.currency),
    cur: instruction.currency,
    ...(instruction.reason ? { reason: instruction.reason.slice(0, 255) } : {}),
  };
  return readRefundAnswer(readRefundTransport(await call(context, "POST", "refunds", body)));
}

/**
 * The credential Provider B's refusal points at. Its sign-in refusal does not say whether it knew the
 * terminal or the signature was wrong, so it blames neither alone (the kind's `refusedTogether`
 * names both); a missing or stale signature is the secret key's side.
 */
function refusedField(body: unknown): string | undefined {
  return findErrorCode(body) === B_SIGN_IN_REFUSAL.error_code ? undefined : "secret_key";
}

/** Authorize now, capture later: captures and voids in B's style (./wire.ts). */
function readCaptureAnswer(read: ReturnType<typeof readAuthorizationTransport>): CaptureOutcome {
  return readAuthorizationAnswer(read, bCaptureAnswerSchema, captureOutcomeOf);
}

function readVoidAnswer(read: ReturnType<typeof readAuthorizationTransport>): VoidOutcome {
  return readAuthorizationAnswer(read, bVoidAnswerSchema, voidOutcomeOf);
}

async function capture(context: AdapterContext, instruction: CaptureInstruction): Promise<CaptureOutcome> {
  const body: Omit<z.input<typeof bCaptureSchema>, "terminal_id"> = {
    capture_ref: instruction.captureId,
    txn: instruction.paymentReference,
    sum: formatMinor(instruction.amountMinor, instruction.currency),
    cur: instruction.currency,
  };
  return readCaptureAnswer(readAuthorizationTransport(await call(context, "POST", "captures", body), false));
}

async function voidAuthorization(context: AdapterContext, instruction: VoidInstruction): Promise<VoidOutcome> {
  const body: Omit<z.input<typeof bVoidSchema>, "terminal_id"> = { void_ref: instruction.voidId, txn: instruction.paymentReference };
  return readVoidAnswer(readAuthorizationTransport(await call(context, "POST", "voids", body), false));
}

export const providerBAdapter: ProviderAdapter = {
  createPayment,
  getStatus: async (context, query) => readAnswer(readStatusTransport(await call(context, "GET", `charges/${encodeURIComponent(query.idempotencyKey)}`))),
  healthCheck: async (context) => readHealth(await call(context, "GET", "auth-check"), refusedField),
  refund,
  getRefundStatus: async (context, query) =>
    readRefundAnswer(readRefundStatusTransport(await call(context, "GET", `refunds/${encodeURIComponent(query.refundId)}`))),
  capture,
  getCaptureStatus: async (context, query) =>
    readCaptureAnswer(readAuthorizationTransport(await call(context, "GET", `captures/${encodeURIComponent(query.captureId)}`), true)),
  voidAuthorization,
  getVoidStatus: async (context, query) =>
    readVoidAnswer(readAuthorizationTransport(await call(context, "GET", `voids/${encodeURIComponent(query.voidId)}`), true)),
  tokens: { createPaymentWithToken, deleteToken },
  disputes: {
    getDispute: async (context, query) =>
      readDisputeStatus(await call(context, "GET", `disputes/${encodeURIComponent(query.disputeReference)}`), bDisputeSchema, disputeReportOf),
    submitEvidence,
    accept: async (context, query) => {
      const body: Omit<z.input<typeof bDisputeAcceptSchema>, "terminal_id"> = { dispute_txn: query.disputeReference, accept_ref: query.disputeId };
      return readDisputeAction(await call(context, "POST", "disputes/accept", body), bDisputeSchema, disputeReportOf, disputeRefusalOf);
    },
  },
};

/** Disputes (./wire.ts): the evidence's text fields flat beside the dispute, its files as base64 attachments. */
async function submitEvidence(context: AdapterContext, instruction: DisputeEvidenceInstruction) {
  const body: Omit<z.input<typeof bDisputeEvidenceSchema>, "terminal_id"> = {
    dispute_txn: instruction.disputeReference,
    evidence_ref: instruction.disputeId,
    ...instruction.text,
    attachments: instruction.files.map((file) => ({ name: file.filename, type: file.contentType, data: file.data.toString("base64") })),
  };
  return readDisputeAction(await call(context, "POST", "disputes/evidence", body), bDisputeSchema, disputeReportOf, disputeRefusalOf);
}

/** Saved cards (./wire.ts): the card kept behind `card_token` is charged, no card details sent. */
async function createPaymentWithToken(context: AdapterContext, instruction: TokenPaymentInstruction): Promise<ProviderOutcome> {
  hideFromLog(context.exchanges, [instruction.cardToken]);
  const { customer, lang } = splitLanguage(instruction.customer);
  const body: Omit<z.input<typeof bChargeSchema>, "terminal_id"> = {
    order_ref: instruction.idempotencyKey,
    description: instruction.invoiceId,
    sum: formatMinor(instruction.amountMinor, instruction.currency),
    cur: instruction.currency,
    partial: instruction.allowPartially ? "1" : "0",
    card_token: instruction.cardToken,
    ...(lang ? { lang } : {}),
    customer,
    back_url: instruction.returnUrl,
    ...(instruction.authorizeOnly ? { capture: "0" as const } : {}),
  };
  return readAnswer(readTransport(await call(context, "POST", "charges", body)));
}

async function deleteToken(context: AdapterContext, token: string) {
  hideFromLog(context.exchanges, [token]);
  return readTokenDelete(await call(context, "POST", "cards/forget", { card_token: token }));
}

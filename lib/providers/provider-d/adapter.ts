import "server-only";
import { z } from "zod";
import type {
  AdapterContext,
  DisputeEvidenceInstruction,
  HealthResult,
  PaymentInstruction,
  TokenPaymentInstruction,
  ProviderAdapter,
  ProviderOutcome,
  RefundInstruction,
  RefundOutcome,
} from "@/lib/providers/kit/adapter";
import { callProvider, type ProviderResponse } from "@/lib/providers/kit/provider-http";
import { credentialOf, hideFromLog, readRefundStatusTransport, readRefundTransport, readTokenDelete, unreadableRefundAnswer } from "../server/provider-answers";
import { readDisputeAction, readDisputeStatus } from "../server/dispute-answers";
import { disputeRefusalOf, disputeReportOf, outcomeOfTransaction, refundOutcomeOf } from "./mapping";
import {
  D_CARD_PATHS,
  D_CURRENCY_CODES,
  D_PATHS,
  D_SIGN_IN_REFUSAL,
  dDisputeSchema,
  dRefundAnswerSchema,
  expiryYymm,
  signD,
  type dDisputeAcceptSchema,
  type dDisputeEvidenceSchema,
  type DError,
  type DRefundRequest,
  type DSaleRequest,
  type DTransaction,
} from "./wire";

/**
 * Provider D's client (spec 4.1, 5.1). A sale takes no CVC and no 3-D Secure; P2P connections
 * send the same sale to D's P2P endpoint. The merchant category code and merchant URL go out only
 * when "Send merchant data" is on (never with a refund). Refunds of either channel go to /refund
 * (./wire.ts).
 */

const isP2p = (context: AdapterContext) => context.credentials.p2p === true;

function post(context: AdapterContext, path: string, body: Record<string, unknown>): Promise<ProviderResponse> {
  const rawBody = JSON.stringify(body);
  const headers = { "Api-Key": credentialOf(context, "api_key"), Sign: signD(credentialOf(context, "secret_key"), rawBody) };
  return callProvider(context, { method: "POST", path, headers, rawBody });
}

/** Spec 5.1: merchant data only when the connection says so. */
export function merchantDataOf(context: AdapterContext): Pick<DSaleRequest, "merchant_category_code" | "merchant_url"> {
  if (context.credentials.send_merchant_data !== true) return {};
  return { merchant_category_code: credentialOf(context, "merchant_category_code"), merchant_url: credentialOf(context, "merchant_url") };
}

function saleRequestOf(context: AdapterContext, instruction: PaymentInstruction): DSaleRequest {
  const { card } = instruction;
  return {
    merchant_id: credentialOf(context, "merchant_id"),
    service_id: credentialOf(context, "service_id"),
    transaction_id: instruction.idempotencyKey,
    amount: Number(instruction.amountMinor),
    currency: D_CURRENCY_CODES[instruction.currency] ?? instruction.currency,
    allow_partial: instruction.allowPartially,
    card: { pan: card.number.replace(/\D/g, ""), expiry: expiryYymm(card.expiryMonth, card.expiryYear), holder: card.holder },
    description: `Invoice ${instruction.invoiceId}`,
    ...merchantDataOf(context),
    ...(instruction.tokenize ? { save_card: true } : {}),
  };
}

function errorOf(body: unknown): DError["error"] | undefined {
  const error = (body as Partial<DError> | null)?.error;
  return error && typeof error.code === "string" ? error : undefined;
}

/** Maps any answer of D (or the lack of one) to the service's outcome. */
export function outcomeOf(response: ProviderResponse): ProviderOutcome {
  if (response.kind === "not_sent") return { kind: "soft_failed", resolution: "provider_unavailable", message: response.message };
  if (response.kind === "timed_out") return { kind: "unknown", message: response.message };
  const error = errorOf(response.body);
  const detail = error ? `${error.code}: ${error.message}` : `HTTP ${response.status}`;
  if (response.status === 401 || response.status === 403)
    return { kind: "soft_failed", resolution: "provider_auth_error", message: `Provider D refused the credentials (${detail})` };
  if (response.status === 429 || response.status >= 500)
    return { kind: "soft_failed", resolution: "provider_unavailable", message: `Provider D is unavailable (${detail})` };
  // A P2P sale on a merchant account (or the reverse) is a configuration error: no other attempt fixes it.
  if (error?.code === "wrong_channel") return { kind: "declined", resolution: "general_error", message: `Provider D refused the channel: ${error.message}` };
  const transaction = (response.body as { result?: DTransaction } | null)?.result;
  if (response.status === 200 && transaction?.payment_id) return outcomeOfTransaction(transaction);
  return { kind: "declined", resolution: "general_error", message: `Provider D answered unexpectedly (${detail})` };
}

async function createPayment(context: AdapterContext, instruction: PaymentInstruction): Promise<ProviderOutcome> {
  hideFromLog(context.exchanges, [instruction.card.number.replace(/\D/g, "")]);
  const path = isP2p(context) ? D_PATHS.transfer : D_PATHS.sale;
  return outcomeOf(await post(context, path, saleRequestOf(context, instruction)));
}

async function getStatus(context: AdapterContext, query: { providerReference?: string; idempotencyKey: string }): Promise<ProviderOutcome> {
  const response = await post(context, D_PATHS.status, { merchant_id: credentialOf(context, "merchant_id"), transaction_id: query.idempotencyKey });
  if (response.kind === "answered" && response.status === 404) {
    // D never saw the sale: nothing was charged, so another connection may be tried.
    return { kind: "soft_failed", resolution: "provider_unavailable", message: "Provider D has no record of this sale" };
  }
  return outcomeOf(response);
}

/**
 * The credential D's refusal of a ping points at. Its sign-in refusal (`D_SIGN_IN_REFUSAL`) does not
 * say which of merchant ID, API key and secret key is wrong, so it blames none alone (the kind's
 * `refusedTogether` names all three). The ping always sends a merchant_id, so `unknown_merchant`
 * there means the keys and signature were accepted and the service_id is not the merchant's.
 */
function refusedField(code: string | undefined): string | undefined {
  if (code === D_SIGN_IN_REFUSAL.code) return undefined;
  return code === "unknown_merchant" ? "service_id" : "api_key";
}

async function healthCheck(context: AdapterContext): Promise<HealthResult> {
  const response = await post(context, D_PATHS.ping, { merchant_id: credentialOf(context, "merchant_id"), service_id: credentialOf(context, "service_id") });
  if (response.kind !== "answered") return { kind: "unreachable", message: `Provider D is unreachable: ${response.message}` };
  const error = errorOf(response.body);
  if (response.status === 200) return { kind: "ok", message: "Provider D is reachable and accepted the API key, the signature and the merchant ID." };
  if (response.status === 401 || response.status === 403) {
    const field = refusedField(error?.code);
    return {
      kind: "credentials_refused",
      ...(field ? { field } : {}),
      message: `Provider D refused the credentials: ${error?.message ?? `HTTP ${response.status}`}`,
    };
  }
  return { kind: "unreachable", message: `Provider D answered HTTP ${response.status}${error ? ` (${error.message})` : ""}` };
}

/** The refund in D's words: no merchant data, whatever the connection's toggle says. */
function refundRequestOf(context: AdapterContext, instruction: RefundInstruction): DRefundRequest {
  return {
    merchant_id: credentialOf(context, "merchant_id"),
    service_id: credentialOf(context, "service_id"),
    transaction_id: instruction.refundId,
    payment_id: instruction.paymentReference,
    amount: Number(instruction.amountMinor),
    currency: D_CURRENCY_CODES[instruction.currency] ?? instruction.currency,
    ...(instruction.reason ? { reason: instruction.reason.slice(0, 255) } : {}),
  };
}

const refundAnswerSchema = z.object({ result: dRefundAnswerSchema });

function readRefundAnswer(read: ReturnType<typeof readRefundTransport>): RefundOutcome {
  if ("outcome" in read) return read.outcome;
  const parsed = refundAnswerSchema.safeParse(read.answer.body);
  return parsed.success ? refundOutcomeOf(parsed.data.result) : unreadableRefundAnswer(read.answer);
}

async function refund(context: AdapterContext, instruction: RefundInstruction): Promise<RefundOutcome> {
  return readRefundAnswer(readRefundTransport(await post(context, D_PATHS.refund, refundRequestOf(context, instruction))));
}

/** By the refund's transaction_id, as D's sale status goes by the sale's. */
async function getRefundStatus(context: AdapterContext, query: { refundId: string }): Promise<RefundOutcome> {
  const response = await post(context, D_PATHS.refundStatus, { merchant_id: credentialOf(context, "merchant_id"), transaction_id: query.refundId });
  return readRefundAnswer(readRefundStatusTransport(response));
}

export const providerDAdapter: ProviderAdapter = {
  createPayment,
  getStatus,
  healthCheck,
  refund,
  getRefundStatus,
  tokens: { createPaymentWithToken, deleteToken },
  disputes: {
    getDispute: async (context, query) =>
      readDisputeStatus(
        await post(context, D_PATHS.disputeStatus, { merchant_id: credentialOf(context, "merchant_id"), dispute_id: query.disputeReference }),
        disputeAnswerSchema,
        reportOf,
      ),
    submitEvidence,
    accept: async (context, query) => {
      const body: z.input<typeof dDisputeAcceptSchema> = {
        merchant_id: credentialOf(context, "merchant_id"),
        dispute_id: query.disputeReference,
        submission_id: query.disputeId,
      };
      return readDisputeAction(await post(context, D_PATHS.disputeAccept, body), disputeAnswerSchema, reportOf, disputeRefusalOf);
    },
  },
};

/** Disputes (./wire.ts): answered `{ result: dispute }`. */
const disputeAnswerSchema = z.object({ result: dDisputeSchema });
const reportOf = (answer: z.infer<typeof disputeAnswerSchema>) => disputeReportOf(answer.result);

async function submitEvidence(context: AdapterContext, instruction: DisputeEvidenceInstruction) {
  const body: z.input<typeof dDisputeEvidenceSchema> = {
    merchant_id: credentialOf(context, "merchant_id"),
    dispute_id: instruction.disputeReference,
    submission_id: instruction.disputeId,
    evidence: instruction.text,
    files: instruction.files.map((file) => ({ name: file.filename, mime: file.contentType, data: file.data.toString("base64") })),
  };
  return readDisputeAction(await post(context, D_PATHS.disputeEvidence, body), disputeAnswerSchema, reportOf, disputeRefusalOf);
}

/** Saved cards (./wire.ts): a sale to the card kept behind `card_token`, no card details sent. */
async function createPaymentWithToken(context: AdapterContext, instruction: TokenPaymentInstruction): Promise<ProviderOutcome> {
  hideFromLog(context.exchanges, [instruction.cardToken]);
  const sale: DSaleRequest = {
    merchant_id: credentialOf(context, "merchant_id"),
    service_id: credentialOf(context, "service_id"),
    transaction_id: instruction.idempotencyKey,
    amount: Number(instruction.amountMinor),
    currency: D_CURRENCY_CODES[instruction.currency] ?? instruction.currency,
    allow_partial: instruction.allowPartially,
    card_token: instruction.cardToken,
    description: `Invoice ${instruction.invoiceId}`,
    ...merchantDataOf(context),
  };
  return outcomeOf(await post(context, isP2p(context) ? D_PATHS.transfer : D_PATHS.sale, sale));
}

async function deleteToken(context: AdapterContext, token: string) {
  hideFromLog(context.exchanges, [token]);
  return readTokenDelete(await post(context, D_CARD_PATHS.remove, { merchant_id: credentialOf(context, "merchant_id"), card_token: token }));
}

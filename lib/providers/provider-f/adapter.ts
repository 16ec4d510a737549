import "server-only";
import type { z } from "zod";
import type {
  AdapterContext,
  HealthResult,
  PaymentInstruction,
  ProviderAdapter,
  ProviderOutcome,
  RefundInstruction,
  RefundOutcome,
  TokenPaymentInstruction,
} from "@/lib/providers/kit/adapter";
import { callProvider, type ProviderResponse } from "@/lib/providers/kit/provider-http";
import { credentialOf, hideFromLog, readRefundStatusTransport, readRefundTransport, readTokenDelete, unreadableRefundAnswer } from "../server/provider-answers";
import { readDisputeAction, readDisputeStatus } from "../server/dispute-answers";
import { disputeRefusalOf, disputeReportOf, outcomeOfCharge, refundOutcomeOf } from "./mapping";
import {
  F_PATHS,
  F_SAVED_CARD_PATHS,
  F_SIGN_IN_REFUSAL,
  fDisputeSchema,
  fRefundSchema,
  signF,
  type FCharge,
  type FChargeRequest,
  type fDisputeCloseSchema,
  type fDisputeEvidenceSchema,
  type FError,
  type FRefundRequest,
} from "./wire";

/**
 * Provider F's client (spec 5.2): public key in x-merchant-id, HMAC-SHA256 of the body with the
 * secret key in x-signature. `options.bypass_hpp` sends the charge without a card
 * (createPaymentWithoutCard); `options.send_operation_context_on_return` adds the invoice id and
 * the merchant's reference_id to the return URL, so the merchant's page knows which payment
 * the customer comes back from. Refunds (`POST /v1/refunds`, designed in F's style: ./wire.ts) are
 * signed the same way.
 */

function send(context: AdapterContext, method: "GET" | "POST", path: string, body?: unknown, idempotencyKey?: string): Promise<ProviderResponse> {
  const rawBody = body === undefined ? "" : JSON.stringify(body);
  const headers: Record<string, string> = {
    "x-merchant-id": credentialOf(context, "public_key"),
    "x-signature": signF(credentialOf(context, "secret_key"), rawBody),
  };
  if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
  return callProvider(context, { method, path, headers, ...(body === undefined ? {} : { rawBody }) });
}

type ChargeInstruction = Omit<PaymentInstruction, "card"> & { card?: PaymentInstruction["card"] };

/** The return URL F sends the customer to; with the operation context when the invoice asks for it. */
export function returnUrlOf(instruction: ChargeInstruction): string {
  if (instruction.options.send_operation_context_on_return !== true) return instruction.returnUrl;
  const url = new URL(instruction.returnUrl);
  url.searchParams.set("invoice_id", instruction.invoiceId);
  if (instruction.referenceId) url.searchParams.set("reference_id", instruction.referenceId);
  return url.toString();
}

export function chargeRequestOf(instruction: ChargeInstruction): FChargeRequest {
  const { card } = instruction;
  return {
    amount: Number(instruction.amountMinor),
    currency: instruction.currency.toLowerCase(),
    reference: instruction.idempotencyKey,
    partial_capture: instruction.allowPartially,
    payment_method: card
      ? {
          type: "card",
          card: {
            number: card.number.replace(/\D/g, ""),
            exp_month: card.expiryMonth,
            exp_year: card.expiryYear,
            ...(card.cvc ? { cvc: card.cvc } : {}),
            holder_name: card.holder,
          },
        }
      : { type: "hpp_bypass" },
    customer: instruction.customer,
    return_url: returnUrlOf(instruction),
    metadata: { invoice_id: instruction.invoiceId, tokenize: instruction.gatewayOptions?.cardgate !== undefined },
    ...(instruction.requireThreeDs ? { payment_method_options: { card: { request_three_d_secure: "any" as const } } } : {}),
  };
}

const errorOf = (body: unknown): Partial<FError["error"]> => (body as Partial<FError> | null)?.error ?? {};

/** 401 from F (no key, unknown key, bad signature) is provider_auth_error: spec 5.2. */
export function outcomeOf(response: ProviderResponse): ProviderOutcome {
  if (response.kind === "not_sent") return { kind: "soft_failed", resolution: "provider_unavailable", message: response.message };
  if (response.kind === "timed_out") return { kind: "unknown", message: response.message };
  const error = errorOf(response.body);
  const detail = error.code ? `${error.code}: ${error.message ?? ""}` : `HTTP ${response.status}`;
  if (response.status === 401 || response.status === 403)
    return { kind: "soft_failed", resolution: "provider_auth_error", message: `Provider F refused the API keys (${detail})` };
  if (response.status === 429 || response.status >= 500)
    return { kind: "soft_failed", resolution: "provider_unavailable", message: `Provider F is unavailable (${detail})` };
  const charge = response.body as Partial<FCharge> | null;
  if (response.status >= 200 && response.status < 300 && charge?.object === "charge" && charge.id) return outcomeOfCharge(charge as FCharge);
  return { kind: "declined", resolution: "general_error", message: `Provider F refused the request (${detail})` };
}

async function createPayment(context: AdapterContext, instruction: PaymentInstruction): Promise<ProviderOutcome> {
  hideFromLog(context.exchanges, [instruction.card.number.replace(/\D/g, ""), instruction.card.cvc]);
  return outcomeOf(await send(context, "POST", F_PATHS.charges, chargeRequestOf(instruction), instruction.idempotencyKey));
}

async function createPaymentWithoutCard(context: AdapterContext, instruction: Omit<PaymentInstruction, "card">): Promise<ProviderOutcome> {
  return outcomeOf(await send(context, "POST", F_PATHS.charges, chargeRequestOf(instruction), instruction.idempotencyKey));
}

/** By F's charge id when known, else by the idempotency key the charge was created with. */
async function getStatus(context: AdapterContext, query: { providerReference?: string; idempotencyKey: string }): Promise<ProviderOutcome> {
  const path = query.providerReference ? F_PATHS.charge(query.providerReference) : F_PATHS.byIdempotencyKey(query.idempotencyKey);
  const response = await send(context, "GET", path);
  if (response.kind === "answered" && response.status === 404) {
    // F never saw the charge: nothing was taken, so another connection may be tried.
    return { kind: "soft_failed", resolution: "provider_unavailable", message: "Provider F has no record of this charge" };
  }
  return outcomeOf(response);
}

function refundRequestOf(instruction: RefundInstruction): FRefundRequest {
  return {
    charge: instruction.paymentReference,
    amount: Number(instruction.amountMinor),
    currency: instruction.currency.toLowerCase(),
    reference: instruction.refundId,
    ...(instruction.reason ? { reason: instruction.reason.slice(0, 255) } : {}),
    metadata: { invoice_id: instruction.invoiceId },
  };
}

function readRefundAnswer(read: ReturnType<typeof readRefundTransport>): RefundOutcome {
  if ("outcome" in read) return read.outcome;
  const parsed = fRefundSchema.safeParse(read.answer.body);
  return parsed.success ? refundOutcomeOf(parsed.data) : unreadableRefundAnswer(read.answer);
}

/** The refund id is F's idempotency key: the same refund sent twice is one refund. */
async function refund(context: AdapterContext, instruction: RefundInstruction): Promise<RefundOutcome> {
  return readRefundAnswer(readRefundTransport(await send(context, "POST", F_PATHS.refunds, refundRequestOf(instruction), instruction.refundId)));
}

/** By F's refund id when known, else by the refund's idempotency key. */
async function getRefundStatus(context: AdapterContext, query: { refundId: string; providerReference?: string }): Promise<RefundOutcome> {
  const path = query.providerReference ? F_PATHS.refund(query.providerReference) : F_PATHS.refundByIdempotencyKey(query.refundId);
  return readRefundAnswer(readRefundStatusTransport(await send(context, "GET", path)));
}

/**
 * The credential F's refusal points at. Its sign-in refusal (`F_SIGN_IN_REFUSAL`) does not say
 * whether it knew the public key or the signature was wrong, so it blames neither alone (the kind's
 * `refusedTogether` names both); no key at all, or a prod_ key in the sandbox, is the public key's.
 */
function refusedField(code: string | undefined): string | undefined {
  return code === F_SIGN_IN_REFUSAL.code ? undefined : "public_key";
}

async function healthCheck(context: AdapterContext): Promise<HealthResult> {
  const response = await send(context, "GET", F_PATHS.account);
  if (response.kind !== "answered") return { kind: "unreachable", message: `Provider F is unreachable: ${response.message}` };
  const error = errorOf(response.body);
  if (response.status === 200)
    return { kind: "ok", message: "Provider F is reachable and accepted the public key and the signature made with the secret key." };
  if (response.status === 401 || response.status === 403) {
    const field = refusedField(error.code);
    return {
      kind: "credentials_refused",
      ...(field ? { field } : {}),
      message: `Provider F refused the API keys: ${error.message ?? `HTTP ${response.status}`}`,
    };
  }
  return { kind: "unreachable", message: `Provider F answered HTTP ${response.status}${error.message ? ` (${error.message})` : ""}` };
}

export const providerFAdapter: ProviderAdapter = {
  createPayment,
  createPaymentWithoutCard,
  getStatus,
  healthCheck,
  refund,
  getRefundStatus,
  tokens: { createPaymentWithToken, deleteToken },
  disputes: {
    getDispute: async (context, query) =>
      readDisputeStatus(await send(context, "GET", F_PATHS.dispute(query.disputeReference)), fDisputeSchema, disputeReportOf),
    submitEvidence: async (context, instruction) => {
      const body: z.input<typeof fDisputeEvidenceSchema> = {
        reference: instruction.disputeId,
        evidence: instruction.text,
        files: instruction.files.map((file) => ({ filename: file.filename, content_type: file.contentType, data: file.data.toString("base64") })),
      };
      const response = await send(context, "POST", F_PATHS.disputeEvidence(instruction.disputeReference), body, instruction.disputeId);
      return readDisputeAction(response, fDisputeSchema, disputeReportOf, disputeRefusalOf);
    },
    accept: async (context, query) => {
      const body: z.input<typeof fDisputeCloseSchema> = { reference: query.disputeId };
      const response = await send(context, "POST", F_PATHS.disputeClose(query.disputeReference), body, query.disputeId);
      return readDisputeAction(response, fDisputeSchema, disputeReportOf, disputeRefusalOf);
    },
  },
};

/** Saved cards (./wire.ts): a charge with `payment_method: { type: "saved_card", card_token }`. */
async function createPaymentWithToken(context: AdapterContext, instruction: TokenPaymentInstruction): Promise<ProviderOutcome> {
  hideFromLog(context.exchanges, [instruction.cardToken]);
  const request = { ...chargeRequestOf(instruction), payment_method: { type: "saved_card" as const, card_token: instruction.cardToken } };
  return outcomeOf(
    await send(context, "POST", F_PATHS.charges, { ...request, metadata: { ...request.metadata, tokenize: false } }, instruction.idempotencyKey),
  );
}

async function deleteToken(context: AdapterContext, token: string) {
  hideFromLog(context.exchanges, [token]);
  return readTokenDelete(await send(context, "POST", F_SAVED_CARD_PATHS.detach, { card_token: token }));
}

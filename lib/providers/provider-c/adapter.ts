import "server-only";
import type { z } from "zod";
import type {
  AdapterContext,
  CaptureInstruction,
  CaptureOutcome,
  DisputeEvidenceInstruction,
  PaymentInstruction,
  TokenPaymentInstruction,
  ProviderAdapter,
  ProviderOutcome,
  RefundInstruction,
  RefundOutcome,
  VoidInstruction,
  VoidOutcome,
} from "@/lib/providers/kit/adapter";
import { readAuthorizationAnswer, readAuthorizationTransport } from "../server/authorization-answers";
import { callProvider } from "@/lib/providers/kit/provider-http";
import {
  credentialOf,
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
  basicToken,
  cCancellationSchema,
  cCaptureSchema,
  cDisputeSchema,
  cOrderSchema,
  cRefundSchema,
  type cCancellationRequestSchema,
  type cCaptureRequestSchema,
  type cDisputeAcceptSchema,
  type cDisputeEvidenceSchema,
  type cOrderRequestSchema,
  type cRefundRequestSchema,
} from "./wire";

/** Provider C's client for its shop API (wire format in ./wire.ts, what answers mean in ./mapping.ts). */

function call(context: AdapterContext, method: "GET" | "POST", path: string, body?: unknown) {
  const basic = basicToken(credentialOf(context, "shop_login"), credentialOf(context, "shop_password"));
  hideFromLog(context.exchanges, [basic]);
  return callProvider(context, { method, path: `/shop/${path}`, headers: { authorization: `Basic ${basic}` }, ...(body === undefined ? {} : { body }) });
}

function readOrder(read: ReturnType<typeof readTransport>): ProviderOutcome {
  if ("outcome" in read) return read.outcome;
  const parsed = cOrderSchema.safeParse(read.answer.body);
  return parsed.success ? outcomeOf(parsed.data.order) : unreadableAnswer(read.answer);
}

async function createPayment(context: AdapterContext, instruction: PaymentInstruction): Promise<ProviderOutcome> {
  const { card } = instruction;
  hideFromLog(context.exchanges, [card.number, card.cvc]);
  const body: z.input<typeof cOrderRequestSchema> = {
    shop_order_id: instruction.idempotencyKey,
    description: `Invoice ${instruction.invoiceId}`,
    amount_minor: Number(instruction.amountMinor),
    currency_code: instruction.currency,
    allow_partial_capture: instruction.allowPartially,
    ...(instruction.authorizeOnly ? { capture_mode: "MANUAL" as const } : {}),
    payer: {
      card: {
        card_number: card.number,
        expiry_month: card.expiryMonth,
        expiry_year: card.expiryYear,
        ...(card.cvc ? { cvc: card.cvc } : {}),
        cardholder: card.holder,
      },
      ...(instruction.tokenize ? { save_card: true } : {}),
    },
    return_url: instruction.returnUrl,
    ...(instruction.requireThreeDs ? { three_ds_mode: "REQUIRED" as const } : {}),
    ...(instruction.gatewayOptions ? { gateway_options: instruction.gatewayOptions } : {}),
    ...(instruction.serviceFields ? { service_fields: instruction.serviceFields } : {}),
  };
  return readOrder(readTransport(await call(context, "POST", "orders", body)));
}

function readRefund(read: ReturnType<typeof readRefundTransport>): RefundOutcome {
  if ("outcome" in read) return read.outcome;
  const parsed = cRefundSchema.safeParse(read.answer.body);
  return parsed.success ? refundOutcomeOf(parsed.data.refund) : unreadableRefundAnswer(read.answer);
}

async function refund(context: AdapterContext, instruction: RefundInstruction): Promise<RefundOutcome> {
  const body: z.input<typeof cRefundRequestSchema> = {
    shop_refund_id: instruction.refundId,
    order_id: instruction.paymentReference,
    amount_minor: Number(instruction.amountMinor),
    currency_code: instruction.currency,
    ...(instruction.reason ? { reason: instruction.reason.slice(0, 255) } : {}),
  };
  return readRefund(readRefundTransport(await call(context, "POST", "refunds", body)));
}

/** Authorize now, capture later: C's captures and cancellations (./wire.ts). C captures only the whole authorization. */
function readCapture(read: ReturnType<typeof readAuthorizationTransport>): CaptureOutcome {
  return readAuthorizationAnswer(read, cCaptureSchema, (answer) => captureOutcomeOf(answer.capture));
}

function readCancellation(read: ReturnType<typeof readAuthorizationTransport>): VoidOutcome {
  return readAuthorizationAnswer(read, cCancellationSchema, (answer) => voidOutcomeOf(answer.cancellation));
}

async function capture(context: AdapterContext, instruction: CaptureInstruction): Promise<CaptureOutcome> {
  const body: z.input<typeof cCaptureRequestSchema> = {
    shop_capture_id: instruction.captureId,
    order_id: instruction.paymentReference,
    amount_minor: Number(instruction.amountMinor),
    currency_code: instruction.currency,
  };
  return readCapture(readAuthorizationTransport(await call(context, "POST", "captures", body), false));
}

async function voidAuthorization(context: AdapterContext, instruction: VoidInstruction): Promise<VoidOutcome> {
  const body: z.input<typeof cCancellationRequestSchema> = { shop_cancellation_id: instruction.voidId, order_id: instruction.paymentReference };
  return readCancellation(readAuthorizationTransport(await call(context, "POST", "cancellations", body), false));
}

/** Provider C does not say whether it knew the login: its refusal blames no single field (the kind's `refusedTogether` names both). */
const refusedField = () => undefined;

export const providerCAdapter: ProviderAdapter = {
  createPayment,
  getStatus: async (context, query) => readOrder(readStatusTransport(await call(context, "GET", `orders/${encodeURIComponent(query.idempotencyKey)}`))),
  healthCheck: async (context) => readHealth(await call(context, "GET", "whoami"), refusedField),
  refund,
  getRefundStatus: async (context, query) => readRefund(readRefundStatusTransport(await call(context, "GET", `refunds/${encodeURIComponent(query.refundId)}`))),
  capture,
  getCaptureStatus: async (context, query) =>
    readCapture(readAuthorizationTransport(await call(context, "GET", `captures/${encodeURIComponent(query.captureId)}`), true)),
  voidAuthorization,
  getVoidStatus: async (context, query) =>
    readCancellation(readAuthorizationTransport(await call(context, "GET", `cancellations/${encodeURIComponent(query.voidId)}`), true)),
  tokens: { createPaymentWithToken, deleteToken },
  disputes: {
    getDispute: async (context, query) => readDisputeStatus(await call(context, "GET", disputePath(query.disputeReference)), cDisputeSchema, reportOf),
    submitEvidence,
    accept: async (context, query) => {
      const body: z.input<typeof cDisputeAcceptSchema> = { shop_submission_id: query.disputeId };
      return readDisputeAction(await call(context, "POST", `${disputePath(query.disputeReference)}/accept`, body), cDisputeSchema, reportOf, disputeRefusalOf);
    },
  },
};

/** Disputes (./wire.ts): under /shop/disputes/{id}, answered `{ dispute }`. */
const disputePath = (reference: string) => `disputes/${encodeURIComponent(reference)}`;
const reportOf = (answer: z.infer<typeof cDisputeSchema>) => disputeReportOf(answer.dispute);

async function submitEvidence(context: AdapterContext, instruction: DisputeEvidenceInstruction) {
  const body: z.input<typeof cDisputeEvidenceSchema> = {
    shop_submission_id: instruction.disputeId,
    evidence: instruction.text,
    documents: instruction.files.map((file) => ({ file_name: file.filename, content_type: file.contentType, content_base64: file.data.toString("base64") })),
  };
  return readDisputeAction(
    await call(context, "POST", `${disputePath(instruction.disputeReference)}/evidence`, body),
    cDisputeSchema,
    reportOf,
    disputeRefusalOf,
  );
}

/** Saved cards (./wire.ts): the order is paid with `payer.stored_card`, no card details sent. */
async function createPaymentWithToken(context: AdapterContext, instruction: TokenPaymentInstruction): Promise<ProviderOutcome> {
  hideFromLog(context.exchanges, [instruction.cardToken]);
  const body: z.input<typeof cOrderRequestSchema> = {
    shop_order_id: instruction.idempotencyKey,
    description: `Invoice ${instruction.invoiceId}`,
    amount_minor: Number(instruction.amountMinor),
    currency_code: instruction.currency,
    allow_partial_capture: instruction.allowPartially,
    ...(instruction.authorizeOnly ? { capture_mode: "MANUAL" as const } : {}),
    payer: { stored_card: { card_token: instruction.cardToken } },
    return_url: instruction.returnUrl,
    ...(instruction.gatewayOptions ? { gateway_options: instruction.gatewayOptions } : {}),
    ...(instruction.serviceFields ? { service_fields: instruction.serviceFields } : {}),
  };
  return readOrder(readTransport(await call(context, "POST", "orders", body)));
}

async function deleteToken(context: AdapterContext, token: string) {
  hideFromLog(context.exchanges, [token]);
  return readTokenDelete(await call(context, "POST", "stored-cards/remove", { card_token: token }));
}

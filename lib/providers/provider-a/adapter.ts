import "server-only";
import { createSign } from "node:crypto";
import { z } from "zod";
import { formatMinor, toMinorUnits } from "@/lib/money";
import type { AdapterContext, HardDecline, PaymentInstruction, PayoutInstruction, ProviderAdapter, ProviderOutcome } from "@/lib/providers/kit/adapter";
import { callProvider } from "@/lib/providers/kit/provider-http";
import { findErrorCode, hideFromLog, readHealth, readStatusTransport, readTransport, unreadableAnswer } from "../server/provider-answers";

/**
 * Provider A's API v2: JSON bodies carrying merchant_id and service_code, each signed with the
 * merchant's private key (RSA-SHA256 of the raw body, base64, header `X-Signature`); Provider A
 * verifies it with the payment key issued for the merchant. `request_id` is the idempotency key:
 * the same id twice is one payment or payout, and the status endpoint finds it by that id.
 */

const answerSchema = z.object({
  status: z.enum(["approved", "partially_approved", "declined", "failed", "3ds_required", "processing", "completed", "partially_completed"]),
  transaction_id: z.string(),
  currency: z.string(),
  amount_processed: z.string().optional(),
  decline_code: z.string().optional(),
  decline_reason: z.string().optional(),
  redirect_url: z.string().optional(),
  parts: z.array(z.object({ part_reference: z.string(), amount: z.string(), status: z.enum(["paid", "failed", "processing"]) })).optional(),
});

type Answer = z.infer<typeof answerSchema>;

/** Provider A's decline codes (ISO 8583 style) and what each means for the invoice. */
const DECLINES: Record<string, HardDecline> = { "05": "issuer_decline", "51": "insufficient_funds", N7: "invalid_cvv", "3D": "auth_3ds_failed" };

function signBody(body: string, privateKeyPem: string): string {
  return createSign("sha256").update(body).sign(privateKeyPem, "base64");
}

function credential(context: AdapterContext, id: string): string {
  const value = context.credentials[id];
  return typeof value === "string" ? value : "";
}

async function post(context: AdapterContext, endpoint: string, payload: Record<string, unknown>) {
  const body = JSON.stringify({ merchant_id: credential(context, "merchant_id"), service_code: credential(context, "service_code"), ...payload });
  let signature: string;
  try {
    signature = signBody(body, credential(context, "private_key"));
  } catch {
    // An unusable private key is a refused credential, not a crash of the attempt.
    return { kind: "answered", status: 401, headers: new Headers(), body: { error: { code: "unusable_private_key" } }, text: "" } as const;
  }
  return callProvider(context, { method: "POST", path: `/api/v2/${endpoint}`, rawBody: body, headers: { "x-signature": signature } });
}

function toOutcome(answer: Answer): ProviderOutcome {
  const reference = answer.transaction_id;
  const processed = answer.amount_processed === undefined ? 0n : toMinorUnits(answer.amount_processed, answer.currency);
  const parts = answer.parts?.map((part) => ({
    providerReference: part.part_reference,
    amountMinor: toMinorUnits(part.amount, answer.currency),
    status: part.status === "paid" ? ("succeeded" as const) : part.status === "failed" ? ("failed" as const) : ("pending" as const),
  }));
  switch (answer.status) {
    case "approved":
    case "partially_approved":
    case "completed":
    case "partially_completed":
      return { kind: "succeeded", providerReference: reference, processedAmountMinor: processed, ...(parts ? { parts } : {}) };
    case "3ds_required":
    case "processing":
      return { kind: "pending", providerReference: reference, ...(answer.redirect_url ? { redirectUrl: answer.redirect_url } : {}), ...(parts ? { parts } : {}) };
    case "declined":
    case "failed": {
      const resolution = DECLINES[answer.decline_code ?? ""] ?? "general_error";
      return { kind: "declined", resolution, providerReference: reference, message: answer.decline_reason ?? `Declined by Provider A (${answer.decline_code ?? "no code"}).` };
    }
  }
}

async function send(context: AdapterContext, endpoint: string, payload: Record<string, unknown>): Promise<ProviderOutcome> {
  const response = await post(context, endpoint, payload);
  const read = endpoint === "status" ? readStatusTransport(response) : readTransport(response);
  if ("outcome" in read) return read.outcome;
  const parsed = answerSchema.safeParse(read.answer.body);
  return parsed.success ? toOutcome(parsed.data) : unreadableAnswer(read.answer);
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

/** Provider A's refusal codes say which credential it could not match. */
function refusedField(body: unknown): string {
  const code = findErrorCode(body);
  return code === "unknown_merchant" ? "merchant_id" : code === "invalid_service_code" ? "service_code" : "private_key";
}

export const providerAAdapter: ProviderAdapter = {
  createPayment,
  createPayout,
  getStatus: (context, query) => send(context, "status", { request_id: query.idempotencyKey, operation: query.direction }),
  healthCheck: async (context) => readHealth(await post(context, "ping", { nonce: Date.now().toString(36) }), refusedField),
};

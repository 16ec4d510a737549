import "server-only";
import { z } from "zod";
import type { AdapterContext, HardDecline, PaymentInstruction, ProviderAdapter, ProviderOutcome } from "@/lib/providers/kit/adapter";
import { callProvider } from "@/lib/providers/kit/provider-http";
import { hideFromLog, readHealth, readStatusTransport, readTransport, unreadableAnswer } from "../server/provider-answers";

/**
 * Provider C's shop API: HTTP Basic authentication with the shop login and password, amounts in
 * minor units (`amount_minor`, `currency_code`), the merchant's order id (`shop_order_id`) as the
 * idempotency key. Orders live under /shop/orders; /shop/whoami answers who the shop is.
 */

const orderSchema = z.object({
  order: z.object({
    id: z.string(),
    state: z.enum(["PAID", "PARTIALLY_PAID", "REJECTED", "AWAITING_3DS", "PROCESSING"]),
    paid_minor: z.number().int().nonnegative().optional(),
    rejection_reason: z.string().optional(),
    challenge_url: z.string().optional(),
  }),
});

/** Provider C's rejection reasons and what each means for the invoice. */
const REJECTIONS: Record<string, HardDecline> = {
  ISSUER_DECLINED: "issuer_decline",
  INSUFFICIENT_FUNDS: "insufficient_funds",
  CVC_INVALID: "invalid_cvv",
  THREE_DS_FAILED: "auth_3ds_failed",
};

function credential(context: AdapterContext, id: string): string {
  const value = context.credentials[id];
  return typeof value === "string" ? value : "";
}

function call(context: AdapterContext, method: "GET" | "POST", path: string, body?: unknown) {
  const basic = Buffer.from(`${credential(context, "shop_login")}:${credential(context, "shop_password")}`).toString("base64");
  hideFromLog(context.exchanges, [basic]);
  return callProvider(context, { method, path: `/shop/${path}`, headers: { authorization: `Basic ${basic}` }, ...(body === undefined ? {} : { body }) });
}

function readOrder(read: ReturnType<typeof readTransport>): ProviderOutcome {
  if ("outcome" in read) return read.outcome;
  const parsed = orderSchema.safeParse(read.answer.body);
  if (!parsed.success) return unreadableAnswer(read.answer);
  const { order } = parsed.data;
  switch (order.state) {
    case "PAID":
    case "PARTIALLY_PAID":
      return { kind: "succeeded", providerReference: order.id, processedAmountMinor: BigInt(order.paid_minor ?? 0) };
    case "AWAITING_3DS":
    case "PROCESSING":
      return { kind: "pending", providerReference: order.id, ...(order.challenge_url ? { redirectUrl: order.challenge_url } : {}) };
    case "REJECTED":
      return {
        kind: "declined",
        resolution: REJECTIONS[order.rejection_reason ?? ""] ?? "general_error",
        providerReference: order.id,
        message: `Rejected by Provider C (${order.rejection_reason ?? "no reason"}).`,
      };
  }
}

async function createPayment(context: AdapterContext, instruction: PaymentInstruction): Promise<ProviderOutcome> {
  const { card } = instruction;
  hideFromLog(context.exchanges, [card.number, card.cvc]);
  const body = {
    shop_order_id: instruction.idempotencyKey,
    description: `Invoice ${instruction.invoiceId}`,
    amount_minor: Number(instruction.amountMinor),
    currency_code: instruction.currency,
    allow_partial_capture: instruction.allowPartially,
    payer: {
      card: {
        card_number: card.number,
        expiry_month: card.expiryMonth,
        expiry_year: card.expiryYear,
        ...(card.cvc ? { cvc: card.cvc } : {}),
        cardholder: card.holder,
      },
    },
    return_url: instruction.returnUrl,
    ...(instruction.gatewayOptions ? { gateway_options: instruction.gatewayOptions } : {}),
    ...(instruction.serviceFields ? { service_fields: instruction.serviceFields } : {}),
  };
  return readOrder(readTransport(await call(context, "POST", "orders", body)));
}

/** Provider C does not say whether it knew the login: its refusal blames no single field (the kind's `refusedTogether` names both). */
const refusedField = () => undefined;

export const providerCAdapter: ProviderAdapter = {
  createPayment,
  getStatus: async (context, query) => readOrder(readStatusTransport(await call(context, "GET", `orders/${encodeURIComponent(query.idempotencyKey)}`))),
  healthCheck: async (context) => readHealth(await call(context, "GET", "whoami"), refusedField),
};

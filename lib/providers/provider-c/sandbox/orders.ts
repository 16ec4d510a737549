import "server-only";
import { randomBytes } from "node:crypto";
import { formatMinor } from "@/lib/money";
import type { SandboxContext } from "@/lib/providers/kit/provider-server";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { decideAmount, decideCard, type CardDecision } from "@/lib/sandbox/cards";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { disputePlanDetails, scheduleSandboxDispute } from "@/lib/sandbox/disputes";
import { findRecordByIdempotencyKey, saveRecord, type SandboxRecord } from "@/lib/sandbox/records";
import { heldDetails, sandboxAuthorizationUntil } from "@/lib/sandbox/authorizations";
import { THREE_DS_PENDING_STATUS, THREE_DS_REQUIRED, threeDsUrl } from "@/lib/sandbox/three-ds";
import { C_REJECTIONS } from "../mapping";
import { C_CARD_TOKEN_PREFIX, cOrderRequestSchema, cRemoveStoredCardSchema, type COrder } from "../wire";
import { findKeptCard, forgetCard, keepCard, newCardToken, savedCardDetails, savedCardOfRecord } from "@/lib/sandbox/card-tokens";

export const SLUG = "provider-c";

export const refuse = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

/** A provider account covers both of C's currencies; an H2H merchant account only the one it was opened in. */
export function currenciesOf(account: SandboxAccount): string[] {
  const currency = account.credentials.currency;
  return typeof currency === "string" && currency ? [currency] : ["AMD", "EUR"];
}

function settle(order: COrder["order"], decision: CardDecision, holdUntil?: string): COrder["order"] {
  const { challenge_url: _challenge, ...rest } = order;
  if ((decision.kind === "approve" || decision.kind === "partial") && holdUntil) {
    // Authorize only: the amount is reserved, nothing paid.
    return { ...rest, state: "AUTHORIZED", paid_minor: 0, authorized_minor: Number(decision.capturedMinor), authorization_expires_at: holdUntil };
  }
  if (decision.kind === "approve" || decision.kind === "partial") {
    return { ...rest, state: decision.kind === "approve" ? "PAID" : "PARTIALLY_PAID", paid_minor: Number(decision.capturedMinor) };
  }
  return { ...rest, state: "REJECTED", paid_minor: 0, rejection_reason: C_REJECTIONS[decision.kind === "decline" ? decision.reason : "issuer_decline"] };
}

/** The order now: as created, unless the customer answered the 3-D Secure step since (lib/sandbox/three-ds.ts). */
export function orderFromRecord(record: SandboxRecord): COrder {
  const { order } = record.response as COrder;
  const { details } = record;
  if (details.threeDs === "failed")
    return { order: { ...settle(order, { kind: "decline", reason: "issuer_decline" }), rejection_reason: C_REJECTIONS.auth_3ds_failed } };
  if (details.threeDs !== "passed") return { order: withStoredCard(order, record) };
  const amountMinor = BigInt(order.amount_minor);
  const amountText = formatMinor(amountMinor, order.currency_code);
  const holdUntil = typeof details.authorizedUntil === "string" ? details.authorizedUntil : undefined;
  return {
    order: withStoredCard(settle(order, decideAmount({ amountText, amountMinor, allowPartially: details.allowPartially === true }), holdUntil), record),
  };
}

/** An order paid by card. The same shop_order_id twice from one shop is one order; the test card decides. */
export async function takeOrder(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return refuse(400, "malformed_body", "The body must be JSON.");
  }
  const parsed = cOrderRequestSchema.safeParse(body);
  if (!parsed.success) return refuse(422, "invalid_order", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const input = parsed.data;
  if (!currenciesOf(account).includes(input.currency_code)) {
    return refuse(422, "currency_not_enabled", `The shop takes ${currenciesOf(account).join(" and ")}, not ${input.currency_code}.`);
  }
  const earlier = await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, input.shop_order_id);
  if (earlier && earlier.operation !== "payment") return refuse(409, "shop_order_id_in_use", `That shop_order_id names a ${earlier.operation} of this shop.`);
  if (earlier) return Response.json(orderFromRecord(earlier));

  const card = await cardOfOrder(input.payer, account.connectionId, context);
  if (card instanceof Response) return card;
  const amountMinor = BigInt(input.amount_minor);
  const amountText = formatMinor(amountMinor, input.currency_code);
  const decision = decideCard({
    cardNumber: card.card_number,
    amountText,
    amountMinor,
    allowPartially: input.allow_partial_capture,
    cvc: card.cvc,
    threeDsRequested: input.three_ds_mode === "REQUIRED",
  });
  if (decision.kind === "unavailable") return refuse(503, "bank_unavailable", "The acquiring bank is not answering.");
  const hold = input.capture_mode === "MANUAL" ? heldDetails(await sandboxAuthorizationUntil(context.db, account.connectionId)) : undefined;
  const id = `C-ORD-${randomBytes(8).toString("hex")}`;
  const created = { id, shop_order_id: input.shop_order_id, amount_minor: input.amount_minor, currency_code: input.currency_code };
  const order: COrder["order"] =
    decision.kind === "three_ds"
      ? { ...created, state: "AWAITING_3DS", challenge_url: threeDsUrl(context.publicBaseUrl, SLUG, id, input.return_url ?? context.publicBaseUrl) }
      : settle({ ...created, state: "AWAITING_3DS" }, decision, hold?.authorizedUntil);
  const savedToken = input.payer.save_card === true && !input.payer.stored_card ? newCardToken(C_CARD_TOKEN_PREFIX) : undefined;
  const keep = { expiryMonth: card.expiry_month, expiryYear: card.expiry_year };
  const record = await saveRecord(context.db, {
    provider: SLUG,
    connectionId: account.connectionId,
    operation: "payment",
    reference: id,
    idempotencyKey: input.shop_order_id,
    amountMinor:
      order.authorized_minor !== undefined ? BigInt(order.authorized_minor) : order.paid_minor === undefined ? amountMinor : BigInt(order.paid_minor),
    currency: input.currency_code,
    status: decision.kind === "three_ds" ? THREE_DS_PENDING_STATUS : order.state.toLowerCase(),
    details: {
      ...(decision.kind === "three_ds" ? THREE_DS_REQUIRED : {}),
      ...(hold ?? {}),
      allowPartially: input.allow_partial_capture,
      card: card.card_number,
      ...savedCardDetails(savedToken, keep),
      ...disputePlanDetails(card.card_number, decision, "C-DSP-"),
    },
    request: { ...input, payer: { card: { card_number: card.card_number, cardholder: card.cardholder } } },
    response: { order },
  });
  if (record.reference === id && savedToken) {
    await keepCard(context.db, {
      provider: SLUG,
      connectionId: account.connectionId,
      token: savedToken,
      card: { number: card.card_number, ...keep, holder: card.cardholder },
      paymentReference: id,
    });
  }
  if (record.reference === id) {
    await queueSandboxCallback(context.db, record);
    await scheduleSandboxDispute(context.db, record);
  }
  return Response.json(record.reference === id ? { order: withStoredCard(order, record) } : orderFromRecord(record), {
    status: record.reference === id ? 201 : 200,
  });
}

type OrderCard = { card_number: string; expiry_month: number; expiry_year: number; cvc?: string; cardholder: string };

/** The card an order names: `payer.card`, or the stored card behind `payer.stored_card.card_token`; a refusal when neither is usable. */
async function cardOfOrder(
  payer: ReturnType<typeof cOrderRequestSchema.parse>["payer"],
  connectionId: string,
  context: SandboxContext,
): Promise<OrderCard | Response> {
  if (payer.stored_card) {
    const kept = await findKeptCard(context.db, SLUG, connectionId, payer.stored_card.card_token);
    if (!kept || kept.detached) return refuse(404, "unknown_card", "This shop stores no card behind that card_token.");
    return { card_number: kept.cardNumber, expiry_month: kept.expiryMonth, expiry_year: kept.expiryYear, cardholder: kept.holder };
  }
  if (!payer.card) return refuse(422, "invalid_order", "payer.card or payer.stored_card is required.");
  return payer.card;
}

/** The order with its `stored_card` once paid, when it kept the card (../wire.ts). */
function withStoredCard(order: COrder["order"], record: SandboxRecord): COrder["order"] {
  const saved = savedCardOfRecord(record);
  if (!saved || (order.state !== "PAID" && order.state !== "PARTIALLY_PAID")) return order;
  const expiry = `${saved.expiryYear}-${String(saved.expiryMonth).padStart(2, "0")}`;
  return { ...order, stored_card: { card_token: saved.token, masked_pan: `•••• ${saved.lastFour}`, expiry, scheme: saved.brand } };
}

/** `POST /shop/stored-cards/remove`: the shop forgets the card behind `card_token`. */
export async function removeStoredCard(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return refuse(400, "malformed_body", "The body must be JSON.");
  }
  const parsed = cRemoveStoredCardSchema.safeParse(body);
  if (!parsed.success) return refuse(422, "invalid_request", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const forgotten = await forgetCard(context.db, SLUG, account.connectionId, parsed.data.card_token);
  if (forgotten === "unknown") return refuse(404, "unknown_card", "This shop stores no card behind that card_token.");
  return new Response(null, { status: 204 });
}

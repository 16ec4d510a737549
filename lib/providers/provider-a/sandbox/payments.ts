import "server-only";
import { z } from "zod";
import { formatMinor, parseAmount } from "@/lib/money";
import { decideCard } from "@/lib/sandbox/cards";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { disputePlanDetails, scheduleSandboxDispute } from "@/lib/sandbox/disputes";
import { findRecordByIdempotencyKey, saveRecord } from "@/lib/sandbox/records";
import { heldDetails, sandboxAuthorizationUntil } from "@/lib/sandbox/authorizations";
import { THREE_DS_PENDING_STATUS, THREE_DS_REQUIRED, threeDsUrl } from "@/lib/sandbox/three-ds";
import { A_CARD_TOKEN_PREFIX, A_THREE_DS_REQUIRED, aTokenDeleteSchema, type AAnswer } from "../wire";
import { answerFromRecord, authorizedAnswer, declineAnswer, withSavedCard } from "./answers";
import { findKeptCard, forgetCard, keepCard, newCardToken, savedCardDetails } from "@/lib/sandbox/card-tokens";
import { invalidRequest, newReference, refuse, SLUG, type SignedRequest } from "./common";

const paymentSchema = z.object({
  request_id: z.string().min(1).max(255),
  order_id: z.string().max(255).optional(),
  amount: z.string(),
  currency: z.string().length(3),
  allow_partial: z.boolean().default(false),
  card_credentials: z
    .object({
      number: z.string().regex(/^\d{12,19}$/),
      exp_month: z.string(),
      exp_year: z.string(),
      cvv: z.string().optional(),
      holder: z.string(),
    })
    .optional(),
  customer: z.record(z.string(), z.unknown()).optional(),
  return_url: z.string().optional(),
  /** Saved cards (../wire.ts): keep the card once approved; or charge the card kept behind card_token_id. */
  tokenize: z.boolean().optional(),
  /** Authorize now, capture later (../wire.ts): false only reserves the amount. */
  capture: z.boolean().default(true),
  card_token_id: z.string().min(1).max(64).optional(),
  /** 3-D Secure on request (../wire.ts). */
  three_ds: z.literal(A_THREE_DS_REQUIRED).optional(),
});

/**
 * A card payment. The same request_id twice from one merchant is one payment: the second request
 * gets the first one's answer (another merchant's request_id is not this merchant's). The test card decides the outcome; the record keeps the card masked.
 */
export async function takePayment({ body, account, context }: SignedRequest): Promise<Response> {
  const parsed = paymentSchema.safeParse(body);
  if (!parsed.success) return invalidRequest(parsed.error.issues);
  const payment = parsed.data;
  const amount = parseAmount(payment.amount, payment.currency);
  if (!amount.ok) return invalidRequest([{ path: ["amount"], message: amount.message }]);

  const earlier = await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, payment.request_id);
  if (earlier && earlier.operation !== "payment") return refuse(409, "request_id_in_use", `That request_id names a ${earlier.operation} of this merchant.`);
  if (earlier) return Response.json(answerFromRecord(earlier));

  const card = await cardOfPayment(payment, account.connectionId, context);
  if (card instanceof Response) return card;
  const decision = decideCard({
    cardNumber: card.number,
    amountText: amount.text,
    amountMinor: amount.minor,
    allowPartially: payment.allow_partial,
    cvc: card.cvv,
    threeDsRequested: payment.three_ds === A_THREE_DS_REQUIRED,
  });
  if (decision.kind === "unavailable") {
    return Response.json({ error: { code: "acquirer_unavailable", message: "The acquiring bank did not answer; try again later." } }, { status: 503 });
  }
  const reference = newReference("A-TX");
  const base = { transaction_id: reference, request_id: payment.request_id, currency: payment.currency };
  const hold = payment.capture ? undefined : heldDetails(await sandboxAuthorizationUntil(context.db, account.connectionId));
  let answer: AAnswer;
  let status: string;
  if (decision.kind === "three_ds") {
    answer = { ...base, status: "3ds_required", redirect_url: threeDsUrl(context.publicBaseUrl, SLUG, reference, payment.return_url ?? context.publicBaseUrl) };
    status = THREE_DS_PENDING_STATUS;
  } else if (decision.kind === "decline") {
    answer = declineAnswer(base, decision.reason);
    status = "declined";
  } else if (hold) {
    answer = authorizedAnswer(base, decision.capturedMinor, hold.authorizedUntil);
    status = answer.status;
  } else {
    answer = {
      ...base,
      status: decision.kind === "approve" ? "approved" : "partially_approved",
      amount_processed: formatMinor(decision.capturedMinor, payment.currency),
    };
    status = answer.status;
  }
  const savedToken = payment.tokenize === true && !payment.card_token_id ? newCardToken(A_CARD_TOKEN_PREFIX) : undefined;
  const keep = { expiryMonth: Number(card.exp_month), expiryYear: Number(card.exp_year) };
  const record = await saveRecord(context.db, {
    provider: SLUG,
    connectionId: account.connectionId,
    operation: "payment",
    reference,
    idempotencyKey: payment.request_id,
    amountMinor: decision.kind === "approve" || decision.kind === "partial" ? decision.capturedMinor : amount.minor,
    currency: payment.currency,
    status,
    details: {
      ...(decision.kind === "three_ds" ? THREE_DS_REQUIRED : {}),
      ...(hold ?? {}),
      amountText: amount.text,
      allowPartially: payment.allow_partial,
      card: card.number,
      orderId: payment.order_id ?? null,
      ...savedCardDetails(savedToken, keep),
      ...disputePlanDetails(card.number, decision, "A-DP-"),
    },
    request: { ...payment, card_credentials: { number: card.number, exp_month: card.exp_month, exp_year: card.exp_year, holder: card.holder } },
    response: answer,
  });
  if (record.reference === reference && savedToken) {
    await keepCard(context.db, {
      provider: SLUG,
      connectionId: account.connectionId,
      token: savedToken,
      card: { number: card.number, ...keep, holder: card.holder },
      paymentReference: reference,
    });
  }
  if (record.reference === reference) {
    await queueSandboxCallback(context.db, record);
    await scheduleSandboxDispute(context.db, record);
  }
  // A concurrent twin with the same request_id won the insert: its answer is the answer.
  return Response.json(record.reference === reference ? withSavedCard(answer, record) : answerFromRecord(record));
}

type PaymentCard = { number: string; exp_month: string; exp_year: string; cvv?: string; holder: string };

/** The card a payment names: `card_credentials`, or the card kept behind `card_token_id`; a refusal when neither is usable. */
async function cardOfPayment(payment: z.infer<typeof paymentSchema>, connectionId: string, context: SignedRequest["context"]): Promise<PaymentCard | Response> {
  if (payment.card_token_id) {
    const kept = await findKeptCard(context.db, SLUG, connectionId, payment.card_token_id);
    if (!kept || kept.detached) return refuse(404, "unknown_token", "This merchant has no card behind that card_token_id.");
    return { number: kept.cardNumber, exp_month: String(kept.expiryMonth).padStart(2, "0"), exp_year: String(kept.expiryYear), holder: kept.holder };
  }
  if (!payment.card_credentials) return invalidRequest([{ path: ["card_credentials"], message: "card_credentials or card_token_id is required" }]);
  return payment.card_credentials;
}

/** `POST /api/v2/tokens/delete`: the merchant's card behind `token_id` is forgotten. */
export async function deleteCardToken({ body, account, context }: SignedRequest): Promise<Response> {
  const parsed = aTokenDeleteSchema.safeParse(body);
  if (!parsed.success) return invalidRequest(parsed.error.issues);
  const forgotten = await forgetCard(context.db, SLUG, account.connectionId, parsed.data.token_id);
  if (forgotten === "unknown") return refuse(404, "unknown_token", "This merchant has no card behind that token_id.");
  return Response.json({ status: "deleted" });
}

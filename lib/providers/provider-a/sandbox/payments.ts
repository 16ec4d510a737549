import "server-only";
import { z } from "zod";
import { formatMinor, parseAmount } from "@/lib/money";
import { decideCard } from "@/lib/sandbox/cards";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { findRecordByIdempotencyKey, saveRecord } from "@/lib/sandbox/records";
import { REFUND_OPERATION } from "@/lib/sandbox/refunds";
import { THREE_DS_PENDING_STATUS, THREE_DS_REQUIRED, threeDsUrl } from "@/lib/sandbox/three-ds";
import type { AAnswer } from "../wire";
import { answerFromRecord, declineAnswer } from "./answers";
import { invalidRequest, newReference, refuse, SLUG, type SignedRequest } from "./common";

const paymentSchema = z.object({
  request_id: z.string().min(1).max(255),
  order_id: z.string().max(255).optional(),
  amount: z.string(),
  currency: z.string().length(3),
  allow_partial: z.boolean().default(false),
  card_credentials: z.object({
    number: z.string().regex(/^\d{12,19}$/),
    exp_month: z.string(),
    exp_year: z.string(),
    cvv: z.string().optional(),
    holder: z.string(),
  }),
  customer: z.record(z.string(), z.unknown()).optional(),
  return_url: z.string().optional(),
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
  if (earlier?.operation === REFUND_OPERATION) return refuse(409, "request_id_in_use", "That request_id names a refund of this merchant.");
  if (earlier) return Response.json(answerFromRecord(earlier));

  const card = payment.card_credentials;
  const decision = decideCard({ cardNumber: card.number, amountText: amount.text, amountMinor: amount.minor, allowPartially: payment.allow_partial, cvc: card.cvv });
  if (decision.kind === "unavailable") {
    return Response.json({ error: { code: "acquirer_unavailable", message: "The acquiring bank did not answer; try again later." } }, { status: 503 });
  }
  const reference = newReference("A-TX");
  const base = { transaction_id: reference, request_id: payment.request_id, currency: payment.currency };
  let answer: AAnswer;
  let status: string;
  if (decision.kind === "three_ds") {
    answer = { ...base, status: "3ds_required", redirect_url: threeDsUrl(context.publicBaseUrl, SLUG, reference, payment.return_url ?? context.publicBaseUrl) };
    status = THREE_DS_PENDING_STATUS;
  } else if (decision.kind === "decline") {
    answer = declineAnswer(base, decision.reason);
    status = "declined";
  } else {
    answer = { ...base, status: decision.kind === "approve" ? "approved" : "partially_approved", amount_processed: formatMinor(decision.capturedMinor, payment.currency) };
    status = answer.status;
  }
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
      amountText: amount.text,
      allowPartially: payment.allow_partial,
      card: card.number,
      orderId: payment.order_id ?? null,
    },
    request: { ...payment, card_credentials: { number: card.number, exp_month: card.exp_month, exp_year: card.exp_year, holder: card.holder } },
    response: answer,
  });
  if (record.reference === reference) await queueSandboxCallback(context.db, record);
  // A concurrent twin with the same request_id won the insert: its answer is the answer.
  return Response.json(record.reference === reference ? answer : answerFromRecord(record));
}

import "server-only";
import { z } from "zod";
import { formatMinor, parseAmount } from "@/lib/money";
import { decideAmount, decideCard, splitAmounts, type CardDecision } from "@/lib/sandbox/cards";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { findRecordByIdempotencyKey, saveRecord } from "@/lib/sandbox/records";
import { REFUND_OPERATION } from "@/lib/sandbox/refunds";
import type { AAnswer } from "../wire";
import { answerFromRecord, declineAnswer } from "./answers";
import { invalidRequest, newReference, refuse, SLUG, type SignedRequest } from "./common";

const payoutSchema = z.object({
  request_id: z.string().min(1).max(255),
  order_id: z.string().max(255).optional(),
  amount: z.string(),
  currency: z.string().length(3),
  allow_partial: z.boolean().default(false),
  split: z.boolean().default(false),
  // Full, or masked as the spec's payout examples send it (411111******1111).
  recipient: z.looseObject({ card_number: z.string().regex(/^[\d*]{12,19}$/) }),
});

type Part = NonNullable<AAnswer["parts"]>[number];

/**
 * Parts of a split payout (spec 4.2): over 10,000.00 three parts, each with its own reference.
 * A partly payable amount pays every part but the last; unsplit, it pays 75 % in one.
 */
function payParts(amountMinor: bigint, currency: string, split: boolean, decision: CardDecision & { kind: "approve" | "partial" }) {
  const amounts = split ? splitAmounts(amountMinor) : [amountMinor];
  const partial = decision.kind === "partial";
  const paid = amounts.map((amount, index) =>
    !partial ? amount : amounts.length === 1 ? decision.capturedMinor : index === amounts.length - 1 ? 0n : amount,
  );
  const parts: Part[] = amounts.map((amount, index) => ({
    part_reference: newReference("A-PO"),
    amount: formatMinor(paid[index] === 0n ? amount : paid[index]!, currency),
    status: paid[index] === 0n ? "failed" : "paid",
  }));
  return { parts, paidMinor: paid.reduce((sum, value) => sum + value, 0n) };
}

/**
 * A payout to a card. request_id is the merchant's idempotency key: the same id twice is one payout, and the
 * second request gets the first one's answer. Payouts have no 3-D Secure step.
 */
export async function takePayout({ body, account, context }: SignedRequest): Promise<Response> {
  const parsed = payoutSchema.safeParse(body);
  if (!parsed.success) return invalidRequest(parsed.error.issues);
  const payout = parsed.data;
  const amount = parseAmount(payout.amount, payout.currency);
  if (!amount.ok) return invalidRequest([{ path: ["amount"], message: amount.message }]);

  const earlier = await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, payout.request_id);
  if (earlier?.operation === REFUND_OPERATION) return refuse(409, "request_id_in_use", "That request_id names a refund of this merchant.");
  if (earlier) return Response.json(answerFromRecord(earlier));

  const cardNumber = payout.recipient.card_number;
  const amountInput = { amountText: amount.text, amountMinor: amount.minor, allowPartially: payout.allow_partial };
  const first = decideCard({ cardNumber, ...amountInput });
  if (first.kind === "unavailable") return refuse(503, "payout_gateway_unavailable", "The payout gateway did not answer; try again later.");
  const decision = first.kind === "three_ds" ? decideAmount(amountInput) : first;

  const reference = newReference("A-PX");
  const base = { transaction_id: reference, request_id: payout.request_id, currency: payout.currency };
  let answer: AAnswer;
  let processedMinor = 0n;
  if (decision.kind === "approve" || decision.kind === "partial") {
    const { parts, paidMinor } = payParts(amount.minor, payout.currency, payout.split, decision);
    processedMinor = paidMinor;
    answer = {
      ...base,
      status: paidMinor === amount.minor ? "completed" : "partially_completed",
      amount_processed: formatMinor(paidMinor, payout.currency),
      ...(payout.split ? { parts } : {}),
    };
  } else {
    answer = declineAnswer(base, decision.kind === "decline" ? decision.reason : "issuer_decline", "failed");
  }
  const record = await saveRecord(context.db, {
    provider: SLUG,
    connectionId: account.connectionId,
    operation: "payout",
    reference,
    idempotencyKey: payout.request_id,
    amountMinor: processedMinor,
    currency: payout.currency,
    status: answer.status,
    details: { card: cardNumber, split: payout.split, allowPartially: payout.allow_partial, requestedMinor: amount.minor.toString(), parts: answer.parts ?? [] },
    request: payout,
    response: answer,
  });
  if (record.reference === reference) await queueSandboxCallback(context.db, record);
  return Response.json(record.reference === reference ? answer : answerFromRecord(record));
}

import "server-only";
import { z } from "zod";
import { formatMinor, parseAmount } from "@/lib/money";
import { decideAmount, decideCard, payoutStaysInProgress, splitAmounts, type CardDecision } from "@/lib/sandbox/cards";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { findRecordByIdempotencyKey, saveRecord, updateRecord, type SandboxRecord } from "@/lib/sandbox/records";
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
  const paid = amounts.map((amount, index) => (!partial ? amount : amounts.length === 1 ? decision.capturedMinor : index === amounts.length - 1 ? 0n : amount));
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
  if (decision.kind === "approve" && payoutStaysInProgress(amount.text)) {
    // Taken, not finished: split, the first part is paid and the rest queued; else nothing paid yet.
    const amounts = payout.split ? splitAmounts(amount.minor) : [amount.minor];
    const parts: Part[] = amounts.map((part, index) => ({
      part_reference: newReference("A-PO"),
      amount: formatMinor(part, payout.currency),
      status: payout.split && index === 0 ? "paid" : "processing",
    }));
    processedMinor = payout.split ? amounts[0]! : 0n;
    answer = { ...base, status: "processing", amount_processed: formatMinor(processedMinor, payout.currency), ...(payout.split ? { parts } : {}) };
  } else if (decision.kind === "approve" || decision.kind === "partial") {
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
    details: {
      card: cardNumber,
      split: payout.split,
      allowPartially: payout.allow_partial,
      requestedMinor: amount.minor.toString(),
      parts: answer.parts ?? [],
      ...(answer.status === "processing" ? { inProgress: true } : {}),
    },
    request: payout,
    response: answer,
  });
  // A payout still in progress has nothing to notify yet: its callback comes when a status request finishes it.
  if (record.reference === reference && answer.status !== "processing") await queueSandboxCallback(context.db, record);
  return Response.json(record.reference === reference ? answer : answerFromRecord(record));
}

/** How long a payout in progress stays so: long enough to cancel it by hand. */
const IN_PROGRESS_MS = 60_000;

/** A payout still in progress, as it stands when asked about: a minute after it was taken, the status request finishes it (every part paid). */
export async function settleInProgressPayout(context: SignedRequest["context"], record: SandboxRecord): Promise<SandboxRecord> {
  if (record.operation !== "payout" || record.status !== "processing") return record;
  if (Date.now() - record.createdAt.getTime() < IN_PROGRESS_MS) return record;
  const stored = record.response as AAnswer;
  const requested = BigInt(String(record.details.requestedMinor ?? "0"));
  const answer: AAnswer = {
    ...stored,
    status: "completed",
    amount_processed: formatMinor(requested, stored.currency),
    ...(stored.parts ? { parts: stored.parts.map((part) => ({ ...part, status: "paid" as const })) } : {}),
  };
  const settled = await updateRecord(context.db, SLUG, record.reference, {
    status: "completed",
    amountMinor: requested,
    response: answer,
    details: { inProgress: false },
  });
  if (settled) await queueSandboxCallback(context.db, settled);
  return settled ?? record;
}

/**
 * POST /api/v2/payouts/cancel: stops this merchant's payout named by request_id while it is in
 * progress (queued parts canceled); a payout already finished is 409 payout_final. Asking twice
 * answers the canceled payout again.
 */
export async function cancelPayout({ body, account, context }: SignedRequest): Promise<Response> {
  const requestId = typeof body.request_id === "string" ? body.request_id : "";
  const record = requestId ? await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, requestId) : undefined;
  if (!record || record.operation !== "payout") return refuse(404, "not_found", `No payout with request_id ${requestId}.`);
  if (record.status === "canceled" || record.status === "partially_canceled") return Response.json(answerFromRecord(record));
  if (record.status !== "processing")
    return refuse(409, "payout_final", `The payout is already ${String(record.status).replaceAll("_", " ")}; it cannot be canceled.`);
  const stored = record.response as AAnswer;
  const parts = stored.parts?.map((part) => (part.status === "processing" ? { ...part, status: "canceled" as const } : part));
  const paidMinor = record.amountMinor ?? 0n;
  const status = paidMinor > 0n ? "partially_canceled" : "canceled";
  const answer: AAnswer = { ...stored, status, amount_processed: formatMinor(paidMinor, stored.currency), ...(parts ? { parts } : {}) };
  const canceled = await updateRecord(context.db, SLUG, record.reference, { status, response: answer, details: { inProgress: false } });
  return Response.json(canceled ? answerFromRecord(canceled) : answer);
}

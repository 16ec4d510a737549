import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { maskCardNumber } from "@/lib/cards/card-number";
import { formatMinor } from "@/lib/money";
import { decideAmount, decideCard, type CardDecision } from "@/lib/sandbox/cards";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { findRecordByIdempotencyKey, saveRecord, type SandboxRecord } from "@/lib/sandbox/records";
import { REFUND_OPERATION } from "@/lib/sandbox/refunds";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { disputePlanDetails, scheduleSandboxDispute } from "@/lib/sandbox/disputes";
import { D_REJECT_CODES } from "../mapping";
import { findKeptCard, forgetCard, keepCard, newCardToken } from "@/lib/sandbox/card-tokens";
import { D_CARD_TOKEN_PREFIX, D_STATES, type DErrorCode, type DSaleRequest, type DState, type DTransaction } from "../wire";

export const SLUG = "provider-d";

export type DAnswer = { status: number; body: unknown };

export const dError = (status: number, code: DErrorCode, message: string): DAnswer => ({ status, body: { error: { code, message } } });

/** D has no 3-D Secure (spec 4.1 example): the 3-D Secure test card is approved like any other. */
function decide(sale: DSaleRequest, pan: string): CardDecision {
  const amountMinor = BigInt(sale.amount);
  const input = { cardNumber: pan, amountText: formatMinor(amountMinor, "UZS"), amountMinor, allowPartially: sale.allow_partial };
  const decision = decideCard(input);
  return decision.kind === "three_ds" ? decideAmount(input) : decision;
}

/** The record's status in words, beside D's numeric state. */
const STATUS_WORDS: Readonly<Record<DState, string>> = { 2: "performed", 3: "performed_partly", [-1]: "rejected", [-2]: "failed" };

function stateOf(decision: CardDecision): { state: DState; captured: bigint; code: number | null } {
  switch (decision.kind) {
    case "approve":
      return { state: D_STATES.performed, captured: decision.capturedMinor, code: null };
    case "partial":
      return { state: D_STATES.performedPartly, captured: decision.capturedMinor, code: null };
    case "decline":
      return { state: D_STATES.rejected, captured: 0n, code: D_REJECT_CODES[decision.reason] };
    default:
      return { state: D_STATES.failed, captured: 0n, code: null };
  }
}

function isSale(body: unknown): body is DSaleRequest {
  const sale = body as Partial<DSaleRequest> | null;
  return (
    typeof sale?.transaction_id === "string" &&
    sale.transaction_id !== "" &&
    Number.isSafeInteger(sale.amount) &&
    (sale.amount ?? 0) > 0 &&
    ((typeof sale.card?.pan === "string" && /^\d{12,19}$/.test(sale.card.pan)) || (typeof sale.card_token === "string" && sale.card_token !== ""))
  );
}

/**
 * A sale or a P2P transfer. The channel must be the account's (a P2P merchant ID takes only
 * transfers, any other only sales); a transaction_id the merchant repeats returns the first
 * answer (another merchant's is not this one's). What D received is recorded, card masked, with
 * whether merchant data came along (spec 5.1).
 */
export async function runSale(db: Db, account: SandboxAccount, channel: "merchant" | "p2p", body: unknown): Promise<DAnswer> {
  const p2pAccount = account.credentials.p2p === true;
  if (channel === "p2p" && !p2pAccount) {
    return dError(409, "wrong_channel", "This merchant ID is not enabled for P2P transfers; send sales to /merchant/v1/sale.");
  }
  if (channel === "merchant" && p2pAccount) {
    return dError(409, "wrong_channel", "This merchant ID is set up for P2P transfers; send them to /p2p/v1/transfer.");
  }
  if (!isSale(body)) return dError(400, "bad_request", "transaction_id, a positive integer amount and card.pan (12-19 digits) or card_token are required.");
  const earlier = await findRecordByIdempotencyKey(db, SLUG, account.connectionId, body.transaction_id);
  if (earlier?.operation === REFUND_OPERATION) return dError(409, "transaction_id_in_use", "This transaction_id names a refund of this merchant.");
  // The stored answer is redacted (a saved card's token): the transaction in the details is D's own.
  if (earlier)
    return { status: earlier.status === STATUS_WORDS[D_STATES.failed] ? 503 : 200, body: { ...(earlier.response as object), result: transactionOf(earlier) } };
  const card = await cardOfSale(db, account, body);
  if (!card) return dError(404, "card_not_found", "This merchant keeps no card behind that card_token.");
  const decision = decide(body, card.pan);
  const { state, captured, code } = stateOf(decision);
  const savedToken =
    body.save_card === true && !body.card_token && state !== D_STATES.rejected && state !== D_STATES.failed ? newCardToken(D_CARD_TOKEN_PREFIX) : undefined;
  const transaction: DTransaction = {
    transaction_id: body.transaction_id,
    payment_id: `dpay_${randomBytes(12).toString("hex")}`,
    state,
    amount: body.amount,
    captured_amount: Number(captured),
    currency: body.currency,
    channel,
    reject_code: code,
    card_mask: maskCardNumber(card.pan),
    ...(savedToken ? { card_token: savedToken, card_expiry: card.expiry } : {}),
  };
  const answer =
    state === D_STATES.failed
      ? dError(503, "service_unavailable", "Processing is unavailable, try again later.")
      : { status: 200, body: { result: transaction } };
  const record = await saveRecord(db, {
    provider: SLUG,
    connectionId: account.connectionId,
    operation: channel === "p2p" ? "p2p_transfer" : "sale",
    reference: transaction.payment_id,
    idempotencyKey: body.transaction_id,
    amountMinor: captured,
    currency: "UZS",
    status: STATUS_WORDS[state],
    details: {
      channel,
      transaction,
      merchant_data_sent: body.merchant_category_code !== undefined || body.merchant_url !== undefined,
      merchant_category_code: body.merchant_category_code ?? null,
      merchant_url: body.merchant_url ?? null,
      ...disputePlanDetails(card.pan, decision, "ddsp_"),
    },
    request: { ...body, ...(body.card ? { card: { ...body.card, pan: maskCardNumber(body.card.pan) } } : {}) },
    response: answer.status === 200 ? answer.body : { ...(answer.body as object), result: transaction },
  });
  if (record.reference === transaction.payment_id && savedToken) {
    const expiry = { expiryMonth: Number(card.expiry.slice(2, 4)), expiryYear: 2000 + Number(card.expiry.slice(0, 2)) };
    await keepCard(db, {
      provider: SLUG,
      connectionId: account.connectionId,
      token: savedToken,
      card: { number: card.pan, ...expiry, holder: card.holder },
      paymentReference: transaction.payment_id,
    });
  }
  // An unavailable sale (state -2) is no decision; D tells only what it performed or rejected.
  if (record.reference === transaction.payment_id && state !== D_STATES.failed) {
    await queueSandboxCallback(db, record);
    await scheduleSandboxDispute(db, record);
  }
  return answer;
}

/** D's transaction of a sale or P2P transfer record, as its status call answers it; undefined for any other record (a refund). */
export function transactionOf(record: SandboxRecord): DTransaction | undefined {
  if (record.operation !== "sale" && record.operation !== "p2p_transfer") return undefined;
  return (record.details as { transaction?: DTransaction }).transaction;
}

/** What D knows of a transaction of this merchant, by the merchant's transaction_id. */
export async function runStatus(db: Db, account: SandboxAccount, body: unknown): Promise<DAnswer> {
  const key = (body as { transaction_id?: unknown } | null)?.transaction_id;
  const record = typeof key === "string" ? await findRecordByIdempotencyKey(db, SLUG, account.connectionId, key) : undefined;
  const transaction = record && transactionOf(record);
  if (!transaction) return dError(404, "transaction_not_found", "No transaction with this transaction_id.");
  return { status: 200, body: { result: transaction } };
}

/** The card a sale names: `card`, or the one kept behind `card_token` (undefined when there is none, or it was removed). */
async function cardOfSale(db: Db, account: SandboxAccount, sale: DSaleRequest): Promise<{ pan: string; expiry: string; holder: string } | undefined> {
  if (!sale.card_token) return sale.card;
  const kept = await findKeptCard(db, SLUG, account.connectionId, sale.card_token);
  if (!kept || kept.detached) return undefined;
  return { pan: kept.cardNumber, expiry: `${String(kept.expiryYear % 100).padStart(2, "0")}${String(kept.expiryMonth).padStart(2, "0")}`, holder: kept.holder };
}

/** `POST /merchant/v1/card/remove`: the merchant's card behind `card_token` is forgotten. */
export async function runCardRemove(db: Db, account: SandboxAccount, body: unknown): Promise<DAnswer> {
  const token = (body as { card_token?: unknown } | null)?.card_token;
  if (typeof token !== "string" || token === "") return dError(400, "bad_request", "card_token is required.");
  const forgotten = await forgetCard(db, SLUG, account.connectionId, token);
  if (forgotten === "unknown") return dError(404, "card_not_found", "This merchant keeps no card behind that card_token.");
  return { status: 200, body: { result: { removed: true } } };
}

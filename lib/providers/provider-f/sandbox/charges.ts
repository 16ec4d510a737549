import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { maskCardNumber } from "@/lib/cards/card-number";
import { formatMinor } from "@/lib/money";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { decideAmount, decideCard, type CardDecision } from "@/lib/sandbox/cards";
import { findRecordByIdempotencyKey, saveRecord, type SandboxRecord } from "@/lib/sandbox/records";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { disputePlanDetails, scheduleSandboxDispute } from "@/lib/sandbox/disputes";
import { THREE_DS_PENDING_STATUS, THREE_DS_REQUIRED, threeDsUrl } from "@/lib/sandbox/three-ds";
import { F_DECLINES } from "../mapping";
import { findKeptCard, forgetCard, keepCard, newCardToken, savedCardDetails, savedCardOfRecord } from "@/lib/sandbox/card-tokens";
import { F_CARD_TOKEN_PREFIX, type FCharge, type FChargeRequest, type FError, type FErrorCode, type FFailureCode, type FSavedCardDetails } from "../wire";

export const SLUG = "provider-f";
/** The operation of F's charge records (its refunds are "refund" records: ./refunds.ts). */
export const CHARGE_OPERATION = "charge";

export type FAnswer = { status: number; body: FCharge | FError | Record<string, unknown> };

export function fError(status: number, type: FError["error"]["type"], code: FErrorCode, message: string): FAnswer {
  return { status, body: { error: { type, code, message } } };
}

type Details = {
  failureCode?: FFailureCode;
  redirectUrl?: string;
  afterThreeDs?: { kind: CardDecision["kind"]; capturedMinor: string };
  threeDs?: string;
  resolution?: string;
};

const captured = (decision: CardDecision): bigint => (decision.kind === "approve" || decision.kind === "partial" ? decision.capturedMinor : 0n);

/** F's charge object, rebuilt from its record (for the create answer, a replay and a status read). */
export function presentCharge(record: SandboxRecord): FAnswer {
  const details = record.details as Details;
  const requested = record.request as { amount: number; currency: string };
  const charge: FCharge = {
    id: record.reference,
    object: "charge",
    status: "failed",
    amount: requested.amount,
    amount_captured: 0,
    currency: requested.currency,
    livemode: false,
  };
  switch (record.status) {
    case THREE_DS_PENDING_STATUS:
      return { status: 200, body: { ...charge, status: "requires_action", next_action: { type: "redirect_to_url", url: details.redirectUrl ?? "" } } };
    case "succeeded": {
      const after = details.threeDs === "passed" ? details.afterThreeDs : undefined;
      if (after?.kind === "decline") return { status: 200, body: { ...charge, failure_code: F_DECLINES.insufficient_funds } };
      const capturedMinor = after ? Number(after.capturedMinor) : Number(record.amountMinor ?? 0n);
      return { status: 200, body: { ...charge, status: "succeeded", amount_captured: capturedMinor, ...savedCardDetailsOf(record) } };
    }
    case "failed":
      return {
        status: 200,
        body: { ...charge, failure_code: details.failureCode ?? F_DECLINES[details.resolution === "auth_3ds_failed" ? "auth_3ds_failed" : "issuer_decline"] },
      };
    default:
      return { status: 200, body: { ...charge, failure_code: "processing_error" } };
  }
}

function isChargeRequest(body: unknown): body is FChargeRequest {
  const request = body as Partial<FChargeRequest> | null;
  const method = request?.payment_method;
  const validMethod =
    method?.type === "hpp_bypass" ||
    (method?.type === "card" && typeof method.card?.number === "string" && /^\d{12,19}$/.test(method.card.number)) ||
    (method?.type === "saved_card" && typeof method.card_token === "string" && method.card_token !== "");
  return (
    typeof request?.reference === "string" &&
    request.reference !== "" &&
    Number.isSafeInteger(request.amount) &&
    (request.amount ?? 0) > 0 &&
    typeof request.currency === "string" &&
    typeof request.return_url === "string" &&
    validMethod
  );
}

/** bypass_hpp: F's own page collects the card; in test mode the sandbox succeeds the charge at once. */
function decide(body: FChargeRequest, card: { number: string; cvc?: string } | undefined): CardDecision {
  const amountMinor = BigInt(body.amount);
  if (!card) return { kind: "approve", capturedMinor: amountMinor };
  return decideCard({
    cardNumber: card.number,
    amountText: formatMinor(amountMinor, body.currency.toUpperCase()),
    amountMinor,
    allowPartially: body.partial_capture === true,
    cvc: card.cvc,
    threeDsRequested: body.payment_method_options?.card?.request_three_d_secure === "any",
  });
}

function recordStatus(decision: CardDecision): string {
  if (decision.kind === "approve" || decision.kind === "partial") return "succeeded";
  if (decision.kind === "decline") return "failed";
  if (decision.kind === "three_ds") return THREE_DS_PENDING_STATUS;
  return "unavailable";
}

/** Masked card, no CVC: what the record keeps of the request. */
function recordedRequest(body: FChargeRequest): FChargeRequest {
  if (body.payment_method.type !== "card") return body;
  const { cvc: _cvc, ...card } = body.payment_method.card;
  return { ...body, payment_method: { type: "card", card: { ...card, number: maskCardNumber(card.number) } } };
}

export async function createCharge(db: Db, account: SandboxAccount, body: unknown, publicBaseUrl: string): Promise<FAnswer> {
  if (!isChargeRequest(body))
    return fError(
      400,
      "invalid_request_error",
      "invalid_request",
      "reference, a positive integer amount, currency, return_url and payment_method (card or hpp_bypass) are required.",
    );
  // The merchant's own reference repeated is the same charge; another merchant's is not this one's.
  const earlier = await findRecordByIdempotencyKey(db, SLUG, account.connectionId, body.reference);
  if (earlier) {
    if (earlier.operation !== CHARGE_OPERATION)
      return fError(409, "invalid_request_error", "idempotency_key_in_use", "That reference names another request of this merchant.");
    return presentCharge(earlier);
  }
  const card = await cardOfCharge(db, account, body);
  if (card === "missing") return fError(404, "invalid_request_error", "card_token_missing", "No saved card of this merchant has that card_token.");
  const decision = decide(body, card);
  const id = `ch_${randomBytes(12).toString("hex")}`;
  const savedToken = card && body.payment_method.type === "card" && body.metadata?.tokenize === true ? newCardToken(F_CARD_TOKEN_PREFIX) : undefined;
  let details: Details & Record<string, unknown> = {
    bypassHpp: body.payment_method.type === "hpp_bypass",
    returnUrl: body.return_url,
    customer: body.customer,
    ...(card ? { card: card.number } : {}),
    ...(card && savedToken ? savedCardDetails(savedToken, card) : {}),
    ...(card ? disputePlanDetails(card.number, decision, "dp_") : {}),
  };
  if (decision.kind === "decline") details = { ...details, failureCode: F_DECLINES[decision.reason] };
  if (decision.kind === "three_ds") {
    const after = decideAmount({
      amountText: formatMinor(BigInt(body.amount), body.currency.toUpperCase()),
      amountMinor: BigInt(body.amount),
      allowPartially: body.partial_capture === true,
    });
    details = {
      ...details,
      ...THREE_DS_REQUIRED,
      redirectUrl: threeDsUrl(publicBaseUrl, SLUG, id, body.return_url),
      afterThreeDs: { kind: after.kind, capturedMinor: captured(after).toString() },
    };
  }
  const record = await saveRecord(db, {
    provider: SLUG,
    connectionId: account.connectionId,
    operation: CHARGE_OPERATION,
    reference: id,
    idempotencyKey: body.reference,
    // While 3-D Secure waits, the record holds the amount the customer is asked to confirm.
    amountMinor: decision.kind === "three_ds" ? BigInt(body.amount) : captured(decision),
    currency: body.currency.toUpperCase(),
    status: recordStatus(decision),
    details,
    request: recordedRequest(body),
  });
  if (record.status === "unavailable") return fError(503, "api_error", "processor_unavailable", "The card processor is unavailable; try again later.");
  if (record.reference === id && card && savedToken) {
    await keepCard(db, { provider: SLUG, connectionId: account.connectionId, token: savedToken, card, paymentReference: id });
  }
  if (record.reference === id) {
    await queueSandboxCallback(db, record);
    await scheduleSandboxDispute(db, record);
  }
  return presentCharge(record);
}

export function readCharge(account: SandboxAccount, record: SandboxRecord | undefined): FAnswer {
  if (!record || record.connectionId !== account.connectionId || record.operation !== CHARGE_OPERATION)
    return fError(404, "invalid_request_error", "resource_missing", "No such charge.");
  return presentCharge(record);
}

type ChargeCard = { number: string; cvc?: string; expiryMonth: number; expiryYear: number; holder: string };

/** The card a charge names: typed, kept behind a `saved_card` token ("missing" when there is none, or it was detached), or none (hpp_bypass). */
async function cardOfCharge(db: Db, account: SandboxAccount, body: FChargeRequest): Promise<ChargeCard | "missing" | undefined> {
  const method = body.payment_method;
  if (method.type === "hpp_bypass") return undefined;
  if (method.type === "card") {
    const { card } = method;
    return { number: card.number, ...(card.cvc ? { cvc: card.cvc } : {}), expiryMonth: card.exp_month, expiryYear: card.exp_year, holder: card.holder_name };
  }
  const kept = await findKeptCard(db, SLUG, account.connectionId, method.card_token);
  if (!kept || kept.detached) return "missing";
  return { number: kept.cardNumber, expiryMonth: kept.expiryMonth, expiryYear: kept.expiryYear, holder: kept.holder };
}

/** A succeeded charge's `payment_method_details`, when it kept its card (../wire.ts). */
function savedCardDetailsOf(record: SandboxRecord): { payment_method_details?: FSavedCardDetails } {
  const saved = savedCardOfRecord(record);
  if (!saved) return {};
  return {
    payment_method_details: {
      object: "saved_card",
      card_token: saved.token,
      brand: saved.brand,
      last4: saved.lastFour,
      exp_month: saved.expiryMonth,
      exp_year: saved.expiryYear,
    },
  };
}

/** `POST /v1/saved_cards/detach`: the merchant's saved card behind `card_token` is forgotten. */
export async function detachSavedCard(db: Db, account: SandboxAccount, body: unknown): Promise<FAnswer> {
  const token = (body as { card_token?: unknown } | null)?.card_token;
  if (typeof token !== "string" || token === "") return fError(400, "invalid_request_error", "invalid_request", "card_token is required.");
  const forgotten = await forgetCard(db, SLUG, account.connectionId, token);
  if (forgotten === "unknown") return fError(404, "invalid_request_error", "card_token_missing", "No saved card of this merchant has that card_token.");
  return { status: 200, body: { object: "saved_card", detached: true } };
}

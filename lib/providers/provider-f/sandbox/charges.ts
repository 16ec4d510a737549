import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { maskCardNumber } from "@/lib/cards/card-number";
import { formatMinor } from "@/lib/money";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { decideAmount, decideCard, type CardDecision } from "@/lib/sandbox/cards";
import { findRecordByIdempotencyKey, saveRecord, type SandboxRecord } from "@/lib/sandbox/records";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { THREE_DS_PENDING_STATUS, THREE_DS_REQUIRED, threeDsUrl } from "@/lib/sandbox/three-ds";
import { F_DECLINES } from "../mapping";
import type { FCharge, FChargeRequest, FError, FErrorCode, FFailureCode } from "../wire";

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
  const charge: FCharge = { id: record.reference, object: "charge", status: "failed", amount: requested.amount, amount_captured: 0, currency: requested.currency, livemode: false };
  switch (record.status) {
    case THREE_DS_PENDING_STATUS:
      return { status: 200, body: { ...charge, status: "requires_action", next_action: { type: "redirect_to_url", url: details.redirectUrl ?? "" } } };
    case "succeeded": {
      const after = details.threeDs === "passed" ? details.afterThreeDs : undefined;
      if (after?.kind === "decline") return { status: 200, body: { ...charge, failure_code: F_DECLINES.insufficient_funds } };
      const capturedMinor = after ? Number(after.capturedMinor) : Number(record.amountMinor ?? 0n);
      return { status: 200, body: { ...charge, status: "succeeded", amount_captured: capturedMinor } };
    }
    case "failed":
      return { status: 200, body: { ...charge, failure_code: details.failureCode ?? F_DECLINES[details.resolution === "auth_3ds_failed" ? "auth_3ds_failed" : "issuer_decline"] } };
    default:
      return { status: 200, body: { ...charge, failure_code: "processing_error" } };
  }
}

function isChargeRequest(body: unknown): body is FChargeRequest {
  const request = body as Partial<FChargeRequest> | null;
  const method = request?.payment_method;
  const validMethod = method?.type === "hpp_bypass" || (method?.type === "card" && typeof method.card?.number === "string" && /^\d{12,19}$/.test(method.card.number));
  return typeof request?.reference === "string" && request.reference !== "" && Number.isSafeInteger(request.amount) && (request.amount ?? 0) > 0 && typeof request.currency === "string" && typeof request.return_url === "string" && validMethod;
}

/** bypass_hpp: F's own page collects the card; in test mode the sandbox succeeds the charge at once. */
function decide(body: FChargeRequest): CardDecision {
  const amountMinor = BigInt(body.amount);
  if (body.payment_method.type === "hpp_bypass") return { kind: "approve", capturedMinor: amountMinor };
  const { card } = body.payment_method;
  return decideCard({ cardNumber: card.number, amountText: formatMinor(amountMinor, body.currency.toUpperCase()), amountMinor, allowPartially: body.partial_capture === true, cvc: card.cvc });
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
  if (!isChargeRequest(body)) return fError(400, "invalid_request_error", "invalid_request", "reference, a positive integer amount, currency, return_url and payment_method (card or hpp_bypass) are required.");
  // The merchant's own reference repeated is the same charge; another merchant's is not this one's.
  const earlier = await findRecordByIdempotencyKey(db, SLUG, account.connectionId, body.reference);
  if (earlier) {
    if (earlier.operation !== CHARGE_OPERATION) return fError(409, "invalid_request_error", "idempotency_key_in_use", "That reference names another request of this merchant.");
    return presentCharge(earlier);
  }
  const decision = decide(body);
  const id = `ch_${randomBytes(12).toString("hex")}`;
  let details: Details & Record<string, unknown> = { bypassHpp: body.payment_method.type === "hpp_bypass", returnUrl: body.return_url, customer: body.customer };
  if (decision.kind === "decline") details = { ...details, failureCode: F_DECLINES[decision.reason] };
  if (decision.kind === "three_ds") {
    const after = decideAmount({ amountText: formatMinor(BigInt(body.amount), body.currency.toUpperCase()), amountMinor: BigInt(body.amount), allowPartially: body.partial_capture === true });
    details = { ...details, ...THREE_DS_REQUIRED, redirectUrl: threeDsUrl(publicBaseUrl, SLUG, id, body.return_url), afterThreeDs: { kind: after.kind, capturedMinor: captured(after).toString() } };
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
  if (record.reference === id) await queueSandboxCallback(db, record);
  return presentCharge(record);
}

export function readCharge(account: SandboxAccount, record: SandboxRecord | undefined): FAnswer {
  if (!record || record.connectionId !== account.connectionId || record.operation !== CHARGE_OPERATION) return fError(404, "invalid_request_error", "resource_missing", "No such charge.");
  return presentCharge(record);
}

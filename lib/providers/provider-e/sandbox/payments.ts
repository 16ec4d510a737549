import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { maskCardNumber } from "@/lib/cards/card-number";
import { formatMinor, toMinorUnits } from "@/lib/money";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { decideAmount, decideCard, type CardDecision } from "@/lib/sandbox/cards";
import { findRecordByIdempotencyKey, saveRecord, type SandboxRecord } from "@/lib/sandbox/records";
import { heldDetails, sandboxAuthorizationUntil } from "@/lib/sandbox/authorizations";
import { queueSandboxCallback } from "@/lib/sandbox/callback-send";
import { disputePlanDetails, scheduleSandboxDispute } from "@/lib/sandbox/disputes";
import { THREE_DS_PENDING_STATUS, THREE_DS_REQUIRED, threeDsUrl } from "@/lib/sandbox/three-ds";
import { E_REFUSALS } from "../mapping";
import type { EError, EPayment, EPaymentRequest } from "../wire";

export const SLUG = "provider-e";

export type EAnswer = { status: number; body: EPayment | EError | Record<string, unknown> };

export const eError = (status: number, errorCode: EError["errorCode"], message: string): EAnswer => ({ status, body: { status, errorCode, message } });

type Details = {
  requestedMinor: string;
  currency: string;
  refusalReason?: string;
  redirectUrl?: string;
  /** What a passed 3-D Secure step leads to (the amount rule still applies). */
  afterThreeDs?: { kind: CardDecision["kind"]; capturedMinor: string };
  threeDs?: string;
  resolution?: string;
  /** An authorization (lib/sandbox/authorizations.ts): held, captured or voided, and until when. */
  auth?: string;
  authorizedUntil?: string;
  capturedMinor?: string;
};

const captured = (decision: CardDecision): bigint => (decision.kind === "approve" || decision.kind === "partial" ? decision.capturedMinor : 0n);

/** E's view of its own record: the answer to a create (first or repeated) and to a status request. */
export function presentPayment(record: SandboxRecord): EAnswer {
  const details = record.details as Details;
  const money = (minor: bigint) => ({ value: formatMinor(minor, details.currency), currency: details.currency });
  const requested = BigInt(details.requestedMinor);
  const base = { paymentId: record.reference, merchantReference: record.idempotencyKey ?? "", amount: money(requested), capturedAmount: money(0n) };
  const refused = (refusalReason: string): EAnswer => ({ status: 200, body: { ...base, resultCode: "Refused", refusalReason } });
  switch (record.status) {
    case THREE_DS_PENDING_STATUS:
      return { status: 200, body: { ...base, resultCode: "RedirectShopper", action: { type: "redirect", method: "GET", url: details.redirectUrl ?? "" } } };
    case "succeeded": {
      const after = details.threeDs === "passed" ? details.afterThreeDs : undefined;
      if (after?.kind === "decline") return refused(E_REFUSALS.insufficient_funds);
      const capturedMinor = after ? BigInt(after.capturedMinor) : (record.amountMinor ?? 0n);
      if (typeof details.authorizedUntil === "string") {
        // An authorization (captureMode "manual"): reserved; captured only by a capture, which takes all of it.
        return {
          status: 200,
          body: {
            ...base,
            resultCode: capturedMinor < requested ? "PartiallyAuthorised" : "Authorised",
            captureMode: "manual",
            authorisedAmount: money(capturedMinor),
            capturedAmount: money(details.auth === "captured" ? BigInt(String(details.capturedMinor ?? "0")) : 0n),
            authorisationExpiresAt: details.authorizedUntil,
          },
        };
      }
      return {
        status: 200,
        body: { ...base, resultCode: capturedMinor < requested ? "PartiallyAuthorised" : "Authorised", capturedAmount: money(capturedMinor) },
      };
    }
    case "failed":
      return refused(details.refusalReason ?? (details.resolution === "auth_3ds_failed" ? E_REFUSALS.auth_3ds_failed : E_REFUSALS.issuer_decline));
    default:
      return { status: 200, body: { ...base, resultCode: "Error" } };
  }
}

function isPaymentRequest(body: unknown): body is EPaymentRequest {
  const request = body as Partial<EPaymentRequest> | null;
  return (
    typeof request?.merchantReference === "string" &&
    request.merchantReference !== "" &&
    typeof request.amount?.value === "string" &&
    typeof request.amount.currency === "string" &&
    typeof request.paymentMethod?.number === "string" &&
    /^\d{12,19}$/.test(request.paymentMethod.number) &&
    typeof request.returnUrl === "string"
  );
}

function recordStatus(decision: CardDecision): string {
  if (decision.kind === "approve" || decision.kind === "partial") return "succeeded";
  if (decision.kind === "decline") return "failed";
  if (decision.kind === "three_ds") return THREE_DS_PENDING_STATUS;
  return "unavailable";
}

/**
 * A payment of this merchant: the card decides (lib/sandbox/cards.ts), a merchantReference the
 * merchant repeats returns its first payment (another merchant's is not this one's), and
 * everything E received is recorded with the card masked and without the CVC, the shopper (date
 * of birth included) as sent.
 */
export async function createPayment(db: Db, account: SandboxAccount, body: unknown, publicBaseUrl: string): Promise<EAnswer> {
  if (!isPaymentRequest(body))
    return eError(422, "validation", "merchantReference, amount { value, currency }, paymentMethod.number and returnUrl are required.");
  const earlier = await findRecordByIdempotencyKey(db, SLUG, account.connectionId, body.merchantReference);
  if (earlier && earlier.operation !== "payment")
    return eError(409, "reference_in_use", `This merchantReference names a ${earlier.operation} of this merchant.`);
  if (earlier) return presentPayment(earlier);
  let amountMinor: bigint;
  try {
    amountMinor = toMinorUnits(body.amount.value, body.amount.currency);
  } catch {
    return eError(422, "validation", "amount.value is not an amount in this currency.");
  }
  const input = {
    cardNumber: body.paymentMethod.number,
    amountText: body.amount.value,
    amountMinor,
    allowPartially: body.allowPartialCapture === true,
    cvc: body.paymentMethod.cvc,
    threeDsRequested: body.authenticationData?.attemptAuthentication === "always",
  };
  const decision = decideCard(input);
  const hold = body.captureMode === "manual" ? heldDetails(await sandboxAuthorizationUntil(db, account.connectionId)) : undefined;
  const paymentId = `epay_${randomBytes(12).toString("hex")}`;
  const after = decision.kind === "three_ds" ? decideAmount(input) : undefined;
  const details: Details & Record<string, unknown> = {
    requestedMinor: amountMinor.toString(),
    currency: body.amount.currency,
    shopper: body.shopper,
    cardMask: maskCardNumber(body.paymentMethod.number),
    ...(hold ?? {}),
    ...(decision.kind === "decline" ? { refusalReason: E_REFUSALS[decision.reason] } : {}),
    ...disputePlanDetails(body.paymentMethod.number, decision, "edsp_"),
    ...(after
      ? {
          ...THREE_DS_REQUIRED,
          redirectUrl: threeDsUrl(publicBaseUrl, SLUG, paymentId, body.returnUrl),
          afterThreeDs: { kind: after.kind, capturedMinor: captured(after).toString() },
        }
      : {}),
  };
  const { cvc: _cvc, ...method } = body.paymentMethod;
  const record = await saveRecord(db, {
    provider: SLUG,
    connectionId: account.connectionId,
    operation: "payment",
    reference: paymentId,
    idempotencyKey: body.merchantReference,
    // While 3-D Secure waits, the record holds the amount the customer is asked to confirm.
    amountMinor: decision.kind === "three_ds" ? amountMinor : captured(decision),
    currency: body.amount.currency,
    status: recordStatus(decision),
    details,
    request: { ...body, paymentMethod: { ...method, number: maskCardNumber(method.number) } },
  });
  if (record.status === "unavailable") return eError(503, "unavailable", "Processing is temporarily unavailable.");
  if (record.reference === paymentId) {
    await queueSandboxCallback(db, record);
    await scheduleSandboxDispute(db, record);
  }
  return presentPayment(record);
}

export async function readPayment(db: Db, account: SandboxAccount, record: SandboxRecord | undefined): Promise<EAnswer> {
  if (!record || record.connectionId !== account.connectionId || record.operation !== "payment")
    return eError(404, "not_found", "No payment of this merchant with this id or reference.");
  return presentPayment(record);
}

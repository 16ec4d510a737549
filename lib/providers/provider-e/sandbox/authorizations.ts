import "server-only";
import type { Db } from "@/lib/db/client";
import { formatMinor, parseAmount } from "@/lib/money";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import {
  CAPTURE_OPERATION,
  readSandboxAuthorizationRecord,
  takeSandboxCapture,
  takeSandboxVoid,
  VOID_OPERATION,
  type SandboxAuthorizationDecline,
} from "@/lib/sandbox/authorizations";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { E_AUTHORIZATION_REFUSALS } from "../mapping";
import { eCancelSchema, eCaptureSchema, type ECancel, type ECapture, type EErrorCode, type EPayment } from "../wire";
import { eError, presentPayment, SLUG, type EAnswer } from "./payments";

/**
 * Provider E's captures and cancels of authorizations (../wire.ts), decided by the shared engine
 * (lib/sandbox/authorizations.ts). E captures only the whole authorization: a part is Refused
 * ("Partial capture not supported").
 */

/** E grants an authorization when its payment is Authorised with captureMode "manual" (at once, or once 3-D Secure passed). */
function granted(payment: SandboxRecord): boolean {
  const answer = presentPayment(payment).body as EPayment;
  return answer.captureMode === "manual" && (answer.resultCode === "Authorised" || answer.resultCode === "PartiallyAuthorised");
}

/** The shared engine's refusals in E's error codes and statuses (E answers a bad request with 422 validation). */
const REFUSALS: Readonly<Record<string, { status: number; errorCode: EErrorCode }>> = {
  authorization_not_found: { status: 404, errorCode: "not_found" },
  key_in_use: { status: 409, errorCode: "reference_in_use" },
  currency_mismatch: { status: 422, errorCode: "currency_mismatch" },
  invalid_amount: { status: 422, errorCode: "validation" },
};

const refusal = (result: { status: number; code: string; text: string }): EAnswer => {
  const known = REFUSALS[result.code] ?? { status: result.status === 400 ? 422 : result.status, errorCode: "validation" as const };
  return eError(known.status, known.errorCode, result.text);
};

const refusalReasonOf = (record: SandboxRecord) => {
  const decline = record.details.decline as SandboxAuthorizationDecline | undefined;
  return decline ? { refusalReason: E_AUTHORIZATION_REFUSALS[decline] } : {};
};

function presentCapture(record: SandboxRecord): ECapture {
  const currency = record.currency ?? "EUR";
  const reason = refusalReasonOf(record);
  return {
    captureId: record.reference,
    paymentId: String(record.details.paymentReference ?? ""),
    merchantReference: record.idempotencyKey ?? "",
    status: reason.refusalReason ? "Refused" : "Captured",
    ...reason,
    amount: { value: formatMinor(record.amountMinor ?? 0n, currency), currency },
  };
}

function presentCancel(record: SandboxRecord): ECancel {
  const reason = refusalReasonOf(record);
  return {
    cancelId: record.reference,
    paymentId: String(record.details.paymentReference ?? ""),
    merchantReference: record.idempotencyKey ?? "",
    status: reason.refusalReason ? "Refused" : "Cancelled",
    ...reason,
  };
}

const issuesText = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`).join("; ");

/** POST /v2/payments/{paymentId}/captures: the whole authorization, once per merchantReference. */
export async function createCapture(db: Db, account: SandboxAccount, paymentId: string, body: unknown): Promise<EAnswer> {
  const parsed = eCaptureSchema.safeParse(body);
  if (!parsed.success) return eError(422, "validation", issuesText(parsed.error.issues));
  const request = parsed.data;
  const amount = parseAmount(request.amount.value, request.amount.currency);
  if (!amount.ok) return eError(422, "validation", `amount.value: ${amount.message}`);
  const result = await takeSandboxCapture(db, {
    provider: SLUG,
    account,
    paymentReference: paymentId,
    key: request.merchantReference,
    referencePrefix: "ecap_",
    granted,
    amountMinor: amount.minor,
    currency: request.amount.currency,
    partialAllowed: false,
    request,
  });
  if (result.kind === "refused") return refusal(result);
  return { status: 200, body: presentCapture(result.record) };
}

/** POST /v2/payments/{paymentId}/cancels: releases the authorization, once per merchantReference. */
export async function createCancel(db: Db, account: SandboxAccount, paymentId: string, body: unknown): Promise<EAnswer> {
  const parsed = eCancelSchema.safeParse(body);
  if (!parsed.success) return eError(422, "validation", issuesText(parsed.error.issues));
  const result = await takeSandboxVoid(db, {
    provider: SLUG,
    account,
    paymentReference: paymentId,
    key: parsed.data.merchantReference,
    referencePrefix: "ecan_",
    granted,
    request: parsed.data,
  });
  if (result.kind === "refused") return refusal(result);
  return { status: 200, body: presentCancel(result.record) };
}

/** GET /v2/captures?merchantReference=… and GET /v2/cancels?merchantReference=…: a capture or cancel of this merchant. */
export async function readAuthorizationCall(db: Db, account: SandboxAccount, operation: "capture" | "cancel", reference: string | null): Promise<EAnswer> {
  const record = reference
    ? await readSandboxAuthorizationRecord(db, SLUG, account, operation === "capture" ? CAPTURE_OPERATION : VOID_OPERATION, reference)
    : undefined;
  if (!record) return eError(404, "not_found", `No ${operation} of this merchant with this merchantReference.`);
  return { status: 200, body: operation === "capture" ? presentCapture(record) : presentCancel(record) };
}

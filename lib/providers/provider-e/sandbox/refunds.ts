import "server-only";
import type { Db } from "@/lib/db/client";
import { formatMinor, parseAmount, toMinorUnits } from "@/lib/money";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { capturedOfAuthorization } from "@/lib/sandbox/authorizations";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { readSandboxRefund, takeSandboxRefund, type SandboxRefundDecline, type SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { E_REFUND_REFUSALS, E_REFUND_RESULT } from "../mapping";
import { eRefundSchema, type EErrorCode, type EPayment, type ERefund } from "../wire";
import { eError, presentPayment, SLUG, type EAnswer } from "./payments";

/** The shared refund engine's refusals in E's error codes and statuses (E answers a bad request with 422 validation). */
const REFUSALS: Readonly<Record<string, { status: number; errorCode: EErrorCode }>> = {
  payment_not_found: { status: 404, errorCode: "not_found" },
  not_captured: { status: 422, errorCode: "not_captured" },
  key_in_use: { status: 409, errorCode: "reference_in_use" },
  currency_mismatch: { status: 422, errorCode: "validation" },
  invalid_amount: { status: 422, errorCode: "validation" },
  temporarily_unavailable: { status: 503, errorCode: "unavailable" },
};

/** A refund record in E's words (its answers and refund notifications). */
export function presentRefund(record: SandboxRecord): ERefund {
  const decline = record.details.declineCode as SandboxRefundDecline | undefined;
  const currency = record.currency ?? "EUR";
  return {
    refundId: record.reference,
    paymentId: String(record.details.paymentReference ?? ""),
    merchantReference: record.idempotencyKey ?? "",
    resultCode: E_REFUND_RESULT[record.status as SandboxRefundStatus],
    ...(decline ? { refusalReason: E_REFUND_REFUSALS[decline] } : {}),
    amount: { value: formatMinor(record.amountMinor ?? 0n, currency), currency },
  };
}

/**
 * What E captured of a payment: its capturedAmount once Authorised or PartiallyAuthorised, read
 * as E's status call presents the record (so a 3-D Secure payment counts once passed).
 */
function captured(payment: SandboxRecord): bigint | undefined {
  if (payment.operation !== "payment") return undefined;
  // An authorization: only what its capture took.
  const authorization = capturedOfAuthorization(payment);
  if (authorization !== null) return authorization;
  const answer = presentPayment(payment).body as EPayment;
  if (answer.resultCode !== "Authorised" && answer.resultCode !== "PartiallyAuthorised") return undefined;
  return toMinorUnits(answer.capturedAmount.value, answer.capturedAmount.currency);
}

/** POST /v2/refunds: a refund of one of this merchant's payments, once per merchantReference. */
export async function createRefund(db: Db, account: SandboxAccount, body: unknown): Promise<EAnswer> {
  const parsed = eRefundSchema.safeParse(body);
  if (!parsed.success) return eError(422, "validation", parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  const request = parsed.data;
  const amount = parseAmount(request.amount.value, request.amount.currency);
  if (!amount.ok) return eError(422, "validation", `amount.value: ${amount.message}`);
  const result = await takeSandboxRefund(db, {
    provider: SLUG,
    account,
    paymentReference: request.paymentId,
    refundKey: request.merchantReference,
    amountText: amount.text,
    amountMinor: amount.minor,
    currency: request.amount.currency,
    referencePrefix: "eref_",
    captured,
    reason: request.reason,
    request,
  });
  if (result.kind === "refused") {
    const refusal = REFUSALS[result.code] ?? { status: result.status, errorCode: "validation" };
    return eError(refusal.status, refusal.errorCode, result.text);
  }
  return { status: 200, body: presentRefund(result.record) };
}

/** GET /v2/refunds/{refundId} and GET /v2/refunds?merchantReference=…: a refund of this merchant. */
export async function readRefund(db: Db, account: SandboxAccount, by: { refundKey?: string; reference?: string }): Promise<EAnswer> {
  const record = by.refundKey || by.reference ? await readSandboxRefund(db, SLUG, account, by) : undefined;
  if (!record) return eError(404, "not_found", "No refund of this merchant with this id or reference.");
  return { status: 200, body: presentRefund(record) };
}

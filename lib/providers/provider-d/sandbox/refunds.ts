import "server-only";
import type { Db } from "@/lib/db/client";
import { formatMinor } from "@/lib/money";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { readSandboxRefund, takeSandboxRefund, type SandboxRefundDecline, type SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { D_REFUND_REJECT_CODES, D_REFUND_STATE } from "../mapping";
import { D_CURRENCY_CODES, D_STATES, dRefundSchema, type DErrorCode, type DRefund } from "../wire";
import { dError, SLUG, transactionOf, type DAnswer } from "./sale";

/** The shared refund engine's refusals in D's error codes. */
const REFUSAL_CODES: Readonly<Record<string, DErrorCode>> = {
  payment_not_found: "payment_not_found",
  not_captured: "not_captured",
  key_in_use: "transaction_id_in_use",
  currency_mismatch: "currency_mismatch",
  invalid_amount: "invalid_amount",
  temporarily_unavailable: "service_unavailable",
};

/** ISO 4217 alphabetic code of D's numeric one (an alphabetic code is taken as it is). */
function alphabeticCurrency(code: string): string | undefined {
  if (!/^\d+$/.test(code)) return code;
  return Object.entries(D_CURRENCY_CODES).find(([, numeric]) => numeric === code)?.[0];
}

/** A refund record in D's words (its answers and refund notifications). */
export function refundFromRecord(record: SandboxRecord): DRefund {
  const decline = record.details.declineCode as SandboxRefundDecline | undefined;
  const currency = record.currency ?? "UZS";
  return {
    transaction_id: record.idempotencyKey ?? "",
    refund_id: record.reference,
    payment_id: String(record.details.paymentReference ?? ""),
    state: D_REFUND_STATE[record.status as SandboxRefundStatus],
    amount: Number(record.amountMinor ?? 0n),
    currency: D_CURRENCY_CODES[currency] ?? currency,
    reject_code: decline ? D_REFUND_REJECT_CODES[decline].code : null,
  };
}

/** What D captured of a sale or P2P transfer: its captured_amount once performed (fully or partly). */
function captured(payment: SandboxRecord): bigint | undefined {
  const transaction = transactionOf(payment);
  if (transaction?.state !== D_STATES.performed && transaction?.state !== D_STATES.performedPartly) return undefined;
  return BigInt(transaction.captured_amount);
}

/** POST /refund: a refund of one of this merchant's sales or transfers, once per transaction_id. */
export async function runRefund(db: Db, account: SandboxAccount, body: unknown): Promise<DAnswer> {
  const parsed = dRefundSchema.safeParse(body);
  if (!parsed.success) return dError(400, "bad_request", parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  const request = parsed.data;
  const currency = alphabeticCurrency(request.currency);
  if (!currency) return dError(400, "bad_request", `currency: ${request.currency} is no currency code D knows.`);
  const amountMinor = BigInt(request.amount);
  const result = await takeSandboxRefund(db, {
    provider: SLUG,
    account,
    paymentReference: request.payment_id,
    refundKey: request.transaction_id,
    amountText: formatMinor(amountMinor, currency),
    amountMinor,
    currency,
    referencePrefix: "drf_",
    captured,
    reason: request.reason,
    request,
  });
  if (result.kind === "refused") return dError(result.status, REFUSAL_CODES[result.code] ?? "bad_request", result.text);
  return { status: 200, body: { result: refundFromRecord(result.record) } };
}

/** POST /refund/status: a refund of this merchant, by its transaction_id. */
export async function runRefundStatus(db: Db, account: SandboxAccount, body: unknown): Promise<DAnswer> {
  const key = (body as { transaction_id?: unknown } | null)?.transaction_id;
  const record = typeof key === "string" && key !== "" ? await readSandboxRefund(db, SLUG, account, { refundKey: key }) : undefined;
  if (!record) return dError(404, "transaction_not_found", "No refund with this transaction_id.");
  return { status: 200, body: { result: refundFromRecord(record) } };
}

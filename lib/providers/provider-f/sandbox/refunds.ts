import "server-only";
import type { Db } from "@/lib/db/client";
import { formatMinor } from "@/lib/money";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { readSandboxRefund, takeSandboxRefund, type SandboxRefundDecline, type SandboxRefundResult, type SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { F_REFUND_DECLINES, F_REFUND_STATUS } from "../mapping";
import { fRefundRequestSchema, type FError, type FErrorCode, type FRefund } from "../wire";
import { CHARGE_OPERATION, fError, presentCharge, SLUG, type FAnswer } from "./charges";

/** A refund record as F's refund object (its answers and refund events). */
export function presentRefund(record: SandboxRecord): FAnswer {
  const decline = record.details.declineCode as SandboxRefundDecline | undefined;
  const refund: FRefund = {
    id: record.reference,
    object: "refund",
    status: F_REFUND_STATUS[record.status as SandboxRefundStatus],
    amount: Number(record.amountMinor ?? 0n),
    currency: (record.currency ?? "").toLowerCase(),
    charge: String(record.details.paymentReference ?? ""),
    reference: record.idempotencyKey ?? "",
    livemode: false,
    ...(decline ? F_REFUND_DECLINES[decline] : {}),
  };
  return { status: 200, body: refund };
}

/**
 * What F captured of a charge: its amount_captured once the charge reads "succeeded" as F presents
 * it (after a passed 3-D Secure step too, and a bypass_hpp charge made without a card).
 */
function captured(payment: SandboxRecord): bigint | undefined {
  if (payment.operation !== CHARGE_OPERATION) return undefined;
  const charge = presentCharge(payment).body as { status?: string; amount_captured?: number };
  return charge.status === "succeeded" && Number.isSafeInteger(charge.amount_captured) ? BigInt(charge.amount_captured!) : undefined;
}

/** The shared engine's refusals in F's error words. */
const REFUSALS: Readonly<Record<string, { type: FError["error"]["type"]; code: FErrorCode }>> = {
  key_in_use: { type: "invalid_request_error", code: "idempotency_key_in_use" },
  payment_not_found: { type: "invalid_request_error", code: "resource_missing" },
  not_captured: { type: "invalid_request_error", code: "charge_not_captured" },
  currency_mismatch: { type: "invalid_request_error", code: "currency_mismatch" },
  invalid_amount: { type: "invalid_request_error", code: "amount_invalid" },
  temporarily_unavailable: { type: "api_error", code: "processor_unavailable" },
};

function refusal(result: Extract<SandboxRefundResult, { kind: "refused" }>): FAnswer {
  const words = REFUSALS[result.code] ?? { type: "invalid_request_error", code: "invalid_request" };
  return fError(result.status, words.type, words.code, result.text);
}

/** POST /v1/refunds: a refund of one of this merchant's charges, once per reference. */
export async function createRefund(db: Db, account: SandboxAccount, body: unknown): Promise<FAnswer> {
  const parsed = fRefundRequestSchema.safeParse(body);
  if (!parsed.success) {
    return fError(400, "invalid_request_error", "invalid_request", parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  }
  const request = parsed.data;
  const currency = request.currency.toUpperCase();
  const amountMinor = BigInt(request.amount);
  const result = await takeSandboxRefund(db, {
    provider: SLUG,
    account,
    paymentReference: request.charge,
    refundKey: request.reference,
    amountText: formatMinor(amountMinor, currency),
    amountMinor,
    currency,
    referencePrefix: "re_",
    captured,
    reason: request.reason,
    request,
  });
  return result.kind === "refused" ? refusal(result) : presentRefund(result.record);
}

/** GET /v1/refunds/{id} and GET /v1/refunds?idempotency_key={reference}: the refund as it is now (a pending one settles). */
export async function readRefund(db: Db, account: SandboxAccount, by: { id?: string; reference?: string }): Promise<FAnswer> {
  const record = by.id || by.reference ? await readSandboxRefund(db, SLUG, account, by.id ? { reference: by.id } : { refundKey: by.reference }) : undefined;
  return record ? presentRefund(record) : fError(404, "invalid_request_error", "resource_missing", "No such refund.");
}

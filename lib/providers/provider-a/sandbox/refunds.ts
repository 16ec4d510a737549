import "server-only";
import { formatMinor, parseAmount } from "@/lib/money";
import { capturedOfAuthorization } from "@/lib/sandbox/authorizations";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { readSandboxRefund, takeSandboxRefund, type SandboxRefundDecline, type SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { A_REFUND_DECLINES, A_REFUND_STATUS } from "../mapping";
import { aRefundRequestSchema, type ARefund } from "../wire";
import { answerFromRecord } from "./answers";
import { invalidRequest, refuse, SLUG, type SignedRequest } from "./common";

/** A refund record in A's words (its answers, status answers and refund notifications). */
export function refundFromRecord(record: SandboxRecord): ARefund {
  const decline = record.details.declineCode as SandboxRefundDecline | undefined;
  const currency = record.currency ?? "";
  return {
    status: A_REFUND_STATUS[record.status as SandboxRefundStatus],
    refund_id: record.reference,
    request_id: record.idempotencyKey ?? "",
    transaction_id: String(record.details.paymentReference ?? ""),
    amount_refunded: formatMinor(record.amountMinor ?? 0n, currency),
    currency,
    ...(decline ? { decline_code: A_REFUND_DECLINES[decline].code, decline_reason: A_REFUND_DECLINES[decline].reason } : {}),
  };
}

/**
 * What A captured of a payment: its amount_processed once approved or partially approved, read
 * from the status endpoint's answer so a passed 3-D Secure step counts (its record stays pending).
 */
function captured(payment: SandboxRecord): bigint | undefined {
  if (payment.operation !== "payment") return undefined;
  // An authorization: only what its capture took.
  const authorization = capturedOfAuthorization(payment);
  if (authorization !== null) return authorization;
  const answer = answerFromRecord(payment);
  if (answer.status !== "approved" && answer.status !== "partially_approved") return undefined;
  const processed = parseAmount(answer.amount_processed, answer.currency);
  return processed.ok ? processed.minor : undefined;
}

/** POST /api/v2/refunds: a refund of one of this merchant's payments, once per request_id. */
export async function takeRefund({ body, account, context }: SignedRequest): Promise<Response> {
  const parsed = aRefundRequestSchema.safeParse(body);
  if (!parsed.success) return invalidRequest(parsed.error.issues);
  const refund = parsed.data;
  const amount = parseAmount(refund.amount, refund.currency);
  if (!amount.ok) return invalidRequest([{ path: ["amount"], message: amount.message }]);
  const result = await takeSandboxRefund(context.db, {
    provider: SLUG,
    account,
    paymentReference: refund.transaction_id,
    refundKey: refund.request_id,
    amountText: amount.text,
    amountMinor: amount.minor,
    currency: refund.currency,
    referencePrefix: "A-RF-",
    captured,
    reason: refund.reason,
    request: refund,
  });
  if (result.kind === "refused") return refuse(result.status, result.code, result.text);
  return Response.json(refundFromRecord(result.record));
}

/** POST /api/v2/status with `operation: "refund"`: a refund of this merchant by its request_id. */
export async function refundStatus({ account, context }: SignedRequest, requestId: string): Promise<Response> {
  const record = requestId ? await readSandboxRefund(context.db, SLUG, account, { refundKey: requestId }) : undefined;
  if (!record) return refuse(404, "not_found", `No refund with request_id ${requestId}.`);
  return Response.json(refundFromRecord(record));
}

import "server-only";
import { capturedOfAuthorization } from "@/lib/sandbox/authorizations";
import { formatMinor, parseAmount } from "@/lib/money";
import type { SandboxContext } from "@/lib/providers/kit/provider-server";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import type { SandboxRecord } from "@/lib/sandbox/records";
import { readSandboxRefund, takeSandboxRefund, type SandboxRefundDecline, type SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { B_REFUND_DECLINES, B_REFUND_RESULT } from "../mapping";
import { bRefundSchema, type BRefund } from "../wire";
import { answerFromRecord, refuse, SLUG } from "./charges";

/** A refund record in B's words (its answers and refund notifications). */
export function refundFromRecord(record: SandboxRecord): BRefund {
  const decline = record.details.declineCode as SandboxRefundDecline | undefined;
  return {
    result: B_REFUND_RESULT[record.status as SandboxRefundStatus],
    refund_txn: record.reference,
    refund_ref: record.idempotencyKey ?? "",
    txn: String(record.details.paymentReference ?? ""),
    sum: formatMinor(record.amountMinor ?? 0n, record.currency ?? "EUR"),
    cur: record.currency ?? "",
    ...(decline ? B_REFUND_DECLINES[decline] : {}),
  };
}

/** What B captured of a charge: its captured sum once it is "ok" or "partial" (3-D Secure passed included). */
function captured(payment: SandboxRecord): bigint | undefined {
  if (payment.operation !== "payment") return undefined;
  // An authorization: only what its capture took.
  const authorization = capturedOfAuthorization(payment);
  if (authorization !== null) return authorization;
  const answer = answerFromRecord(payment);
  if (answer.result !== "ok" && answer.result !== "partial") return undefined;
  const sum = parseAmount(answer.captured_sum ?? answer.sum, answer.cur);
  return sum.ok ? sum.minor : undefined;
}

/** POST /v1/refunds: a refund of one of this terminal's charges, once per refund_ref. */
export async function takeRefund(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return refuse(400, "malformed_body", "The body must be JSON.");
  }
  const parsed = bRefundSchema.safeParse(body);
  if (!parsed.success) return refuse(400, "invalid_request", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const request = parsed.data;
  if (request.terminal_id !== account.credentials.terminal_id) return refuse(401, "unknown_terminal", "terminal_id differs from X-Terminal.");
  const amount = parseAmount(request.sum, request.cur);
  if (!amount.ok) return refuse(400, "invalid_request", `sum: ${amount.message}`);
  const result = await takeSandboxRefund(context.db, {
    provider: SLUG,
    account,
    paymentReference: request.txn,
    refundKey: request.refund_ref,
    amountText: amount.text,
    amountMinor: amount.minor,
    currency: request.cur,
    referencePrefix: "rfB",
    captured,
    reason: request.reason,
    request,
  });
  if (result.kind === "refused") return refuse(result.status, result.code, result.text);
  return Response.json(refundFromRecord(result.record));
}

/** GET /v1/refunds/{refund_ref}. */
export async function refundStatus(refundRef: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const record = await readSandboxRefund(context.db, SLUG, account, { refundKey: refundRef });
  if (!record) return refuse(404, "not_found", "No refund with that refund_ref on this terminal.");
  return Response.json(refundFromRecord(record));
}

import "server-only";
import { formatMinor } from "@/lib/money";
import { capturedOfAuthorization } from "@/lib/sandbox/authorizations";
import type { SandboxContext } from "@/lib/providers/kit/provider-server";
import type { SandboxAccount } from "@/lib/sandbox/accounts";
import { findRecordByIdempotencyKey, type SandboxRecord } from "@/lib/sandbox/records";
import { readSandboxRefund, takeSandboxRefund, type SandboxRefundDecline, type SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { C_REFUND_REJECTIONS, C_REFUND_STATE } from "../mapping";
import { cRefundRequestSchema, type CRefund } from "../wire";
import { orderFromRecord, refuse, SLUG } from "./orders";

/** A refund record in C's words (its answers and refund notifications). */
export function refundFromRecord(record: SandboxRecord): { refund: CRefund } {
  const decline = record.details.declineCode as SandboxRefundDecline | undefined;
  return {
    refund: {
      id: record.reference,
      shop_refund_id: record.idempotencyKey ?? "",
      order_id: String(record.details.paymentReference ?? ""),
      state: C_REFUND_STATE[record.status as SandboxRefundStatus],
      amount_minor: Number(record.amountMinor ?? 0n),
      currency_code: record.currency ?? "",
      ...(decline ? { rejection_reason: C_REFUND_REJECTIONS[decline] } : {}),
    },
  };
}

/**
 * What C captured of an order: its paid_minor once PAID or PARTIALLY_PAID, read from the order as
 * the status request shows it, so a passed 3-D Secure step counts (its record stays pending).
 */
function captured(payment: SandboxRecord): bigint | undefined {
  if (payment.operation !== "payment") return undefined;
  // An authorization: only what its capture took.
  const authorization = capturedOfAuthorization(payment);
  if (authorization !== null) return authorization;
  const { order } = orderFromRecord(payment);
  return order.state === "PAID" || order.state === "PARTIALLY_PAID" ? BigInt(order.paid_minor ?? 0) : undefined;
}

/** POST /shop/refunds: a refund of one of this shop's orders, once per shop_refund_id. */
export async function takeRefund(raw: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return refuse(400, "malformed_body", "The body must be JSON.");
  }
  const parsed = cRefundRequestSchema.safeParse(body);
  if (!parsed.success) return refuse(422, "invalid_refund", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  const input = parsed.data;
  const amountMinor = BigInt(input.amount_minor);
  const takenBefore = await findRecordByIdempotencyKey(context.db, SLUG, account.connectionId, input.shop_refund_id);
  const result = await takeSandboxRefund(context.db, {
    provider: SLUG,
    account,
    paymentReference: input.order_id,
    refundKey: input.shop_refund_id,
    amountText: formatMinor(amountMinor, input.currency_code),
    amountMinor,
    currency: input.currency_code,
    referencePrefix: "C-REF-",
    captured,
    reason: input.reason,
    request: input,
  });
  // C words what it cannot take as 422, like an order it cannot take.
  if (result.kind === "refused") return refuse(result.status === 400 ? 422 : result.status, result.code, result.text);
  return Response.json(refundFromRecord(result.record), { status: takenBefore ? 200 : 201 });
}

/** GET /shop/refunds/{shop_refund_id}. */
export async function refundStatus(shopRefundId: string, account: SandboxAccount, context: SandboxContext): Promise<Response> {
  const record = await readSandboxRefund(context.db, SLUG, account, { refundKey: shopRefundId });
  if (!record) return refuse(404, "refund_not_found", "The shop has no refund with that shop_refund_id.");
  return Response.json(refundFromRecord(record));
}

import type { InvoiceStatus } from "@/lib/db/enums";
import { formatMinor, parseAmount } from "@/lib/money";

/**
 * When a payment may be refunded and how much: the one home of these rules, read by the API, the
 * dashboard's Refund form and the engine. A payment is refundable once processed (in full or in
 * part), while a refund is in flight, and after partial refunds, up to what the provider collected
 * less what is refunded or on its way back.
 */
export const REFUNDABLE_STATUSES = ["processed", "partially_processed", "refunding", "partially_refunded"] as const satisfies readonly InvoiceStatus[];

export function isRefundableStatus(status: string): boolean {
  return (REFUNDABLE_STATUSES as readonly string[]).includes(status);
}

/**
 * What may still be refunded, in minor units: processed less refunded and open refunds, and less
 * what disputes hold (open ones, and lost or accepted ones: that money went back through the
 * provider already; a won dispute gives it back).
 */
export function refundableRest(invoice: { processedAmountMinor: bigint | null; disputedAmountMinor?: bigint }, reservedMinor: bigint): bigint {
  const rest = (invoice.processedAmountMinor ?? 0n) - reservedMinor - (invoice.disputedAmountMinor ?? 0n);
  return rest > 0n ? rest : 0n;
}

/**
 * Where the invoice goes when its last open refund settles: everything refunded, part of it, or
 * (every refund failed) back to what the payment was.
 */
export function statusAfterRefunds(invoice: { amountMinor: bigint; processedAmountMinor: bigint | null }, refundedMinor: bigint): InvoiceStatus {
  const processed = invoice.processedAmountMinor ?? 0n;
  if (refundedMinor > 0n) return refundedMinor >= processed ? "refunded" : "partially_refunded";
  return processed < invoice.amountMinor ? "partially_processed" : "processed";
}

export type RefundAmountCheck =
  { ok: true; text: string; minor: bigint } | { ok: false; code: "invalid_amount" | "out_of_range" | "exceeds_refundable"; message: string };

/**
 * An amount asked for against what is left (`restMinor`): a positive decimal in the currency's
 * places, at most the rest. Shared by the service (in the transaction that holds the invoice) and
 * the Refund form before its review, so a typo never reaches the confirmation.
 */
export function checkRefundAmount(value: unknown, currency: string, restMinor: bigint): RefundAmountCheck {
  if (typeof value === "number" && value <= 0) return { ok: false, code: "out_of_range", message: "amount must be greater than zero" };
  const parsed = parseAmount(value, currency);
  if (!parsed.ok) return { ok: false, code: "invalid_amount", message: parsed.message };
  if (parsed.minor > restMinor) {
    return {
      ok: false,
      code: "exceeds_refundable",
      message: `amount is more than is left to refund: at most ${formatMinor(restMinor, currency)} ${currency}.`,
    };
  }
  return { ok: true, text: formatMinor(parsed.minor, currency), minor: parsed.minor };
}

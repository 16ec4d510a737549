import type { InvoiceStatus } from "@/lib/db/enums";

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

/** What may still be refunded, in minor units: processed less refunded and open refunds. */
export function refundableRest(invoice: { processedAmountMinor: bigint | null }, reservedMinor: bigint): bigint {
  const rest = (invoice.processedAmountMinor ?? 0n) - reservedMinor;
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

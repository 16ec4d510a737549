import "server-only";
import type { Db } from "@/lib/db/client";
import type { Role } from "@/lib/db/schema";
import type { InvoiceRow } from "@/lib/invoices/store";
import { formatMinor } from "@/lib/money";
import { isRefundableStatus, refundableRest } from "./rules";
import { listRefunds, refundTotals } from "./store";
import { canInMode } from "@/lib/identity/permissions";

/** A refund as the invoice page shows it: plain JSON, no provider exchange bodies. */
export type RefundView = {
  id: string;
  status: string;
  resolution: string | null;
  amount: string;
  currency: string;
  reason: string | null;
  providerReference: string | null;
  message: string | null;
  createdAt: string;
  settledAt: string | null;
};

export type RefundPanel = {
  refunds: RefundView[];
  refundedAmount: string;
  /** What may still be refunded ("0.00" when nothing). */
  rest: string;
  /** Why this viewer cannot refund now, or null when the form may be shown. */
  blocked: string | null;
  /** The payer's name when the invoice was sent one (not a provider's default); null: the confirmation names nobody. */
  customerName: string | null;
};

/** The payment's refunds and whether this viewer may refund it now, with the rest to prefill. */
export async function readRefundPanel(db: Db, invoice: InvoiceRow, role: Role): Promise<RefundPanel> {
  const [rows, totals] = await Promise.all([listRefunds(db, invoice.id), refundTotals(db, invoice.id)]);
  const rest = refundableRest(invoice, totals.reservedMinor);
  const blocked = !isRefundableStatus(invoice.status)
    ? invoice.status === "refunded"
      ? "This payment is refunded in full."
      : "Only a processed payment can be refunded."
    : rest === 0n
      ? invoice.disputedAmountMinor > 0n
        ? "Nothing is left to refund: disputes hold the rest."
        : "Nothing is left to refund: the refunds on their way take all of it."
      : !canInMode(role, "money.refund", invoice.testMode ? "test" : "live")
        ? invoice.testMode
          ? "Your role does not refund payments."
          : "Only an owner or a finance member can refund a live payment."
        : null;
  // The payer's name as the invoice shows it: one sent with the invoice, never a provider's
  // default ("Customer") or a connection's constant, which name nobody.
  const name =
    invoice.resolvedCustomerSources?.["customer.name"]?.source === "request" || !invoice.resolvedCustomerSources ? invoice.resolvedCustomer?.name : undefined;
  return {
    refunds: rows.map((row) => ({
      id: row.id,
      status: row.status,
      resolution: row.resolution,
      amount: row.amount,
      currency: row.currency,
      reason: row.reason,
      providerReference: row.providerReference,
      message: row.message,
      createdAt: row.createdAt.toISOString(),
      settledAt: row.settledAt?.toISOString() ?? null,
    })),
    refundedAmount: formatMinor(totals.refundedMinor, invoice.currency),
    rest: formatMinor(rest, invoice.currency),
    blocked,
    customerName: typeof name === "string" && name.trim() ? name : null,
  };
}

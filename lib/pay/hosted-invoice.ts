import "server-only";
import { findOpenAttempt } from "@/lib/processing/attempts";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connections, invoices, merchants } from "@/lib/db/schema";
import { isWebUrl } from "@/lib/http/web-url";
import { PAYMENT_INVOICE_ID } from "@/lib/ids/patterns";
import { formatMinor } from "@/lib/money";
import type { InvoiceRow } from "@/lib/invoices/store";
import { expireIfOverdue } from "@/lib/processing/expiry";
import { payabilityProblems } from "@/lib/processing/payable";
import { findService, getKind } from "@/lib/providers";
import { describeOutcome, type HostedOutcome } from "./outcome";

/**
 * Everything the public hosted payment page (`/pay/{id}`) shows, and nothing more: no customer
 * data, no connection, no card digits. Found only by the invoice's unguessable id (128 random
 * bits), and only for payment invoices of an `_hpp` service.
 */
export type HostedInvoice = {
  id: string;
  merchantName: string;
  amount: string;
  currency: string;
  testMode: boolean;
  /** Provider D's hosted page asks for no CVC. */
  takesCvc: boolean;
  returnUrl: string | null;
  /** What the payment is for, in the merchant's words. */
  description: string | null;
  /** The card form shows only while a payment may start: created, or failed with attempts left. */
  canPay: boolean;
  /** Nothing more will happen to it on this page (paid, closed, out of attempts). */
  final: boolean;
  outcome: HostedOutcome;
  /** ISO time after which an unpaid invoice takes no payment. */
  expiresAt: string;
  /**
   * A saved card charged at creation whose provider asked for 3-D Secure: the step's page,
   * which the customer completes from here; the page asks for no card meanwhile.
   */
  threeDsUrl?: string | null;
};

/** The page links to it: only a web address, never javascript: or data: whatever was stored. */
function linkableReturnUrl(url: string | null): string | null {
  return url && isWebUrl(url) ? url : null;
}

function toHostedInvoice(invoice: InvoiceRow, merchantName: string, connection: { provider: string; kind: string } | null): HostedInvoice {
  const canPay = payabilityProblems(invoice, "payment").length === 0;
  const outcome = describeOutcome({
    status: invoice.status,
    resolution: invoice.resolution,
    processedAmount: invoice.processedAmountMinor === null ? null : formatMinor(invoice.processedAmountMinor, invoice.currency),
  });
  return {
    id: invoice.id,
    merchantName,
    amount: formatMinor(invoice.amountMinor, invoice.currency),
    currency: invoice.currency,
    testMode: invoice.testMode,
    takesCvc: (connection && getKind(connection.provider, connection.kind)?.takesCvc) ?? true,
    returnUrl: linkableReturnUrl(invoice.returnUrl),
    description: invoice.description,
    canPay,
    final: !canPay && outcome.kind !== "in_progress",
    outcome,
    expiresAt: invoice.expiresAt.toISOString(),
  };
}

/**
 * The hosted page's invoice. One whose lifetime is over while it is still unpaid is expired on the
 * spot (through the state machine, so its history and webhook say so), even if the expiry sweep has
 * not come by yet: the page never shows a card form for an expired link.
 */
export async function findHostedInvoice(db: Db, invoiceId: string): Promise<HostedInvoice | undefined> {
  if (!PAYMENT_INVOICE_ID.test(invoiceId)) return undefined;
  const [row] = await db
    .select({ invoice: invoices, merchantName: merchants.name, provider: connections.provider, kind: connections.kind })
    .from(invoices)
    .innerJoin(merchants, eq(merchants.id, invoices.merchantId))
    .leftJoin(connections, eq(connections.id, invoices.connectionId))
    .where(and(eq(invoices.id, invoiceId), eq(invoices.direction, "payment")));
  if (!row || findService(row.invoice.service)?.hostedPage !== true) return undefined;
  const connection = row.provider && row.kind ? { provider: row.provider, kind: row.kind } : null;
  const invoice = await expireIfOverdue(db, row.invoice, "lifetime ended (hosted page)");
  const hosted = toHostedInvoice(invoice, row.merchantName, connection);
  if (invoice.status !== "process_pending" || invoice.paymentMethodId === null) return hosted;
  const attempt = await findOpenAttempt(db, invoice.id);
  return { ...hosted, threeDsUrl: attempt?.status === "pending" && attempt.redirectUrl && isWebUrl(attempt.redirectUrl) ? attempt.redirectUrl : null };
}

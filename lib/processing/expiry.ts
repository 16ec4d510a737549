import "server-only";
import type { Db } from "@/lib/db/client";
import { attemptsExhausted, isExpirableStatus, isPastLifetime, mayStillExpire } from "@/lib/invoices/lifecycle";
import { getInvoice } from "@/lib/invoices/read/get-invoice";
import type { InvoiceWithConnection } from "@/lib/invoices/read/invoice-select";
import type { InvoiceDirection, Mode } from "@/lib/providers";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import { changeInvoiceStatus, StaleInvoiceStatusError } from "@/lib/invoices/status";
import { findOpenAttempt } from "./attempts";

/**
 * Expiry: an unpaid invoice ends `expired` (resolution expired) when its lifetime is over. One rule
 * for the expiry sweep (every few seconds on each worker process, through a partial index of the
 * invoices that may still expire: no job per invoice, so a create writes only its own rows), and for
 * the reads that expire an overdue invoice on the spot rather than show it open: the hosted page
 * and its Pay, the API's and the dashboard's read of one invoice.
 */

/** Expires the invoice if its lifetime is over and it is unpaid; else returns it as it is. Safe to call twice. */
export async function expireIfOverdue(db: Db, invoice: InvoiceRow, reason: string, now = new Date()): Promise<InvoiceRow> {
  const hasOpenAttempt = async () => Boolean(await findOpenAttempt(db, invoice.id));
  if (!isPastLifetime(invoice, now) || !(await mayStillExpire(invoice, hasOpenAttempt))) return invoice;
  try {
    return await changeInvoiceStatus(db, invoice, "expired", "expired", { reason, attemptsExhausted: attemptsExhausted(invoice) });
  } catch (error) {
    // Paid (or taken by a payment request) a moment ago: that wins.
    if (error instanceof StaleInvoiceStatusError) return (await readInvoice(db, invoice.id)) ?? invoice;
    throw error;
  }
}

export async function expireInvoiceById(db: Db, invoiceId: string, reason: string): Promise<InvoiceRow | undefined> {
  const invoice = await readInvoice(db, invoiceId);
  return invoice && expireIfOverdue(db, invoice, reason);
}

/**
 * One of the merchant's invoices as the API reads it, expired on the spot when its lifetime is over
 * and it is unpaid, so a read never shows an overdue invoice open while the sweep has yet to come by.
 */
export async function getInvoiceExpiringOverdue(
  db: Db,
  merchantId: string,
  direction: InvoiceDirection,
  id: string,
  mode?: Mode,
): Promise<InvoiceWithConnection | undefined> {
  const row = await getInvoice(db, merchantId, direction, id, mode);
  if (!row || !isExpirableStatus(row.status) || !isPastLifetime(row)) return row;
  const after = await expireIfOverdue(db, row, "lifetime ended (read)");
  return after.status === row.status ? row : getInvoice(db, merchantId, direction, id, mode);
}

import "server-only";
import type { Db } from "@/lib/db/client";
import { JobBatcher } from "@/lib/jobs/queue";
import { attemptsExhausted, isPastLifetime, mayStillExpire } from "@/lib/invoices/lifecycle";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import { changeInvoiceStatus, StaleInvoiceStatusError } from "@/lib/invoices/status";
import { logger } from "@/lib/logger";
import { findOpenAttempt } from "./attempts";

/**
 * Expiry: an unpaid invoice ends `expired` (resolution expired) when its lifetime is
 * over. One rule for the job queued at creation, the sweep that catches invoices whose job was lost,
 * and the hosted page, which expires an overdue invoice on the spot rather than show a card form.
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

const globalForExpiry = globalThis as unknown as { __expiryBatchers?: WeakMap<Db, JobBatcher<"invoice-expire">> };

function expiryBatcher(db: Db): JobBatcher<"invoice-expire"> {
  const map = (globalForExpiry.__expiryBatchers ??= new WeakMap());
  let batcher = map.get(db);
  if (!batcher) map.set(db, (batcher = new JobBatcher(db, "invoice-expire")));
  return batcher;
}

/**
 * Queues the invoice's expiry at its expires_at; one job per invoice however often it is called.
 * Resolves once the job is stored. Creations arriving together share one insert (group commit,
 * `JobBatcher`) instead of one pg-boss statement and commit each.
 */
export async function scheduleExpiry(db: Db, invoice: Pick<InvoiceRow, "id" | "expiresAt">): Promise<void> {
  try {
    await expiryBatcher(db).add({ data: { invoiceId: invoice.id }, startAfter: invoice.expiresAt, key: invoice.id });
  } catch (error) {
    // The invoice is created and answered; the processing sweep expires it if this job is missing.
    logger.error("invoice expiry not queued", { invoiceId: invoice.id, error: error instanceof Error ? error.message : String(error) });
  }
}

import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { EXPIRABLE_STATUSES, mayStillExpireSql, pastLifetimeSql } from "@/lib/invoices/lifecycle";
import { defineTask, type JobSweep } from "@/lib/jobs/task";
import { expireInvoiceById } from "../expiry";
import { SWEEP_BATCH, type SweepScope } from "../sweep-scope";

/**
 * `invoice-expire`: nothing queues it any more (the expiry sweep below does its work), but a database
 * may still hold such jobs, queued at creation by earlier versions; they run as before: an invoice
 * still unpaid then expires, anything else is left alone, and running twice changes nothing.
 */
export const invoiceExpireTask = defineTask("invoice-expire", async (db, { invoiceId }) => {
  await expireInvoiceById(db, invoiceId, "lifetime ended");
});

/**
 * Invoices past their expires_at that are still unpaid: expired now, oldest first. The query walks
 * the partial index `invoices_expiry_idx` (only invoices in a status that may expire, by
 * expires_at), so it costs the same at a million invoices as at ten. `scope` narrows it (tests).
 */
export async function expireOverdueInvoices(db: Db, scope: SweepScope = {}): Promise<number> {
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        inArray(invoices.status, EXPIRABLE_STATUSES),
        pastLifetimeSql,
        scope.merchantId ? eq(invoices.merchantId, scope.merchantId) : undefined,
        mayStillExpireSql,
      ),
    )
    .orderBy(asc(invoices.expiresAt))
    .limit(scope.limit ?? SWEEP_BATCH);
  let expired = 0;
  for (const { id } of rows) {
    const invoice = await expireInvoiceById(db, id, "lifetime ended (sweep)");
    if (invoice?.status === "expired") expired += 1;
  }
  return expired;
}

/** How often each worker process looks for overdue invoices: EXPIRY_SWEEP_SECONDS (1 to 60), 5 by default. */
function expirySweepMs(): number {
  const value = Number(process.env.EXPIRY_SWEEP_SECONDS?.trim() || Number.NaN);
  return (Number.isInteger(value) && value >= 1 && value <= 60 ? value : 5) * 1000;
}

export const expireOverdueInvoicesSweep: JobSweep = { name: "expire-overdue-invoices", run: (db) => expireOverdueInvoices(db), everyMs: expirySweepMs() };

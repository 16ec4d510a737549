import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { mayStillExpireSql, pastLifetimeSql } from "@/lib/invoices/lifecycle";
import { defineTask, type JobSweep } from "@/lib/jobs/task";
import { expireInvoiceById } from "../expiry";
import { SWEEP_BATCH, type SweepScope } from "../sweep-scope";

/**
 * `invoice-expire`, queued at creation for the invoice's expires_at (scheduleExpiry): an invoice
 * still unpaid then expires; anything else is left alone. Reads the invoice as it is when it runs,
 * so running twice (or late) changes nothing the second time.
 */
export const invoiceExpireTask = defineTask("invoice-expire", async (db, { invoiceId }) => {
  await expireInvoiceById(db, invoiceId, "lifetime ended");
});

/**
 * Invoices past their expires_at that are still unpaid, whose expire job was lost (queued before a
 * crash that lost it, or created before expiry existed): expired now. `scope` narrows it (tests).
 */
export async function expireOverdueInvoices(db: Db, scope: SweepScope = {}): Promise<number> {
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(pastLifetimeSql, scope.merchantId ? eq(invoices.merchantId, scope.merchantId) : undefined, mayStillExpireSql))
    .orderBy(asc(invoices.expiresAt))
    .limit(scope.limit ?? SWEEP_BATCH);
  let expired = 0;
  for (const { id } of rows) {
    const invoice = await expireInvoiceById(db, id, "lifetime ended (sweep)");
    if (invoice?.status === "expired") expired += 1;
  }
  return expired;
}

export const expireOverdueInvoicesSweep: JobSweep = { name: "expire-overdue-invoices", run: (db) => expireOverdueInvoices(db) };

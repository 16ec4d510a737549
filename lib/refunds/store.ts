import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { OPEN_REFUND_STATUSES } from "@/lib/db/enums";
import { invoiceAttempts, invoices, refunds } from "@/lib/db/schema";
import { REFUND_ID } from "@/lib/ids/patterns";
import { REFUNDABLE_STATUSES } from "./rules";

export type RefundRow = typeof refunds.$inferSelect;

/** A refund of one merchant; another merchant's id reads as none. */
export async function findRefund(db: Db, merchantId: string, id: string): Promise<RefundRow | undefined> {
  if (!REFUND_ID.test(id)) return undefined;
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.id, id), eq(refunds.merchantId, merchantId)));
  return row;
}

export async function readRefund(db: Db, id: string): Promise<RefundRow | undefined> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id));
  return row;
}

/** The refund a reference_id names within one mode: test and live refunds have references of their own. */
export async function findRefundByReference(db: Db, merchantId: string, testMode: boolean, referenceId: string): Promise<RefundRow | undefined> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.merchantId, merchantId), eq(refunds.testMode, testMode), eq(refunds.referenceId, referenceId)));
  return row;
}

/** An invoice's refunds, oldest first. */
export async function listRefunds(db: Db, invoiceId: string): Promise<RefundRow[]> {
  return db.select().from(refunds).where(eq(refunds.invoiceId, invoiceId)).orderBy(asc(refunds.createdAt), asc(refunds.id));
}

/** What the invoice has given back (succeeded) and promised (open), in minor units. */
export async function refundTotals(db: Db, invoiceId: string): Promise<{ refundedMinor: bigint; reservedMinor: bigint; open: number }> {
  const [row] = await db
    .select({
      refunded: sql<string>`coalesce(sum(${refunds.amountMinor}) filter (where ${refunds.status} = 'succeeded'), 0)`,
      reserved: sql<string>`coalesce(sum(${refunds.amountMinor}) filter (where ${refunds.status} <> 'failed'), 0)`,
      open: sql<string>`count(*) filter (where ${inArray(refunds.status, [...OPEN_REFUND_STATUSES])})`,
    })
    .from(refunds)
    .where(eq(refunds.invoiceId, invoiceId));
  return { refundedMinor: BigInt(row?.refunded ?? 0), reservedMinor: BigInt(row?.reserved ?? 0), open: Number(row?.open ?? 0) };
}

/**
 * Payments a connection took that can still be refunded (processed, not yet refunded in full): what
 * deleting it would strand, since refunds go back only through the connection that took the payment.
 */
export async function countRefundablePayments(db: Db, merchantId: string, connectionId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<string>`count(*)` })
    .from(invoices)
    .where(
      and(
        eq(invoices.merchantId, merchantId),
        eq(invoices.direction, "payment"),
        inArray(invoices.status, [...REFUNDABLE_STATUSES]),
        sql`coalesce(${invoices.processedAmountMinor}, 0) > ${invoices.refundedAmountMinor}`,
        sql`exists (select 1 from ${invoiceAttempts} a where a.invoice_id = ${invoices.id} and a.status = 'succeeded' and a.connection_id = ${connectionId})`,
      ),
    );
  return Number(row?.count ?? 0);
}

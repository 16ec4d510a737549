import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";

/** One invoice as stored: what every layer above reads and passes around. */
export type InvoiceRow = typeof invoices.$inferSelect;

/** The invoice as it is now, or undefined. */
export async function readInvoice(db: Db, invoiceId: string): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, invoiceId)).limit(1);
  return row;
}

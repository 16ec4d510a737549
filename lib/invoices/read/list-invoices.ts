import { and, desc, eq, gte, like, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connections, invoices } from "@/lib/db/schema";
import { encodeCursor } from "./cursor";
import type { InvoiceListFilter } from "./filters";
import { selectInvoicesWithConnection, withConnection, type InvoiceWithConnection } from "./invoice-select";

export type InvoicePage = { invoices: InvoiceWithConnection[]; nextCursor: string | null };

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

function conditions(merchantId: string, filter: InvoiceListFilter): SQL[] {
  const where: SQL[] = [eq(invoices.merchantId, merchantId)];
  if (filter.direction) where.push(eq(invoices.direction, filter.direction));
  if (filter.status) where.push(eq(invoices.status, filter.status));
  if (filter.provider) where.push(eq(connections.provider, filter.provider));
  if (filter.mode) where.push(eq(invoices.testMode, filter.mode === "test"));
  if (filter.reference?.match === "exact") where.push(eq(invoices.referenceId, filter.reference.value));
  // A prefix match also finds the exact reference; LIKE's wildcards in the text are taken literally.
  if (filter.reference?.match === "prefix") where.push(like(invoices.referenceId, `${escapeLike(filter.reference.value)}%`));
  if (filter.createdFrom) where.push(gte(invoices.createdAt, filter.createdFrom));
  if (filter.createdBefore) where.push(lt(invoices.createdAt, filter.createdBefore));
  if (filter.after) where.push(sql`(${invoices.createdAt}, ${invoices.id}) < (${filter.after.createdAt}::timestamptz, ${filter.after.id})`);
  return where;
}

/**
 * One page of the merchant's invoices, newest first, with the routed connection, in one statement.
 * Keyset pagination on (created_at, id): invoices created meanwhile sort before the cursor, so
 * later pages neither repeat nor skip rows. The API and the dashboard both list through here.
 */
export async function listInvoices(db: Db, merchantId: string, filter: InvoiceListFilter): Promise<InvoicePage> {
  const rows = await selectInvoicesWithConnection(db, merchantId)
    .where(and(...conditions(merchantId, filter)))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(filter.pageSize + 1);
  const page = rows.slice(0, filter.pageSize).map(withConnection);
  const last = page.at(-1);
  return { invoices: page, nextCursor: rows.length > filter.pageSize && last ? encodeCursor(last) : null };
}

import { and, eq, sql, type Placeholder } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import type { InvoiceDirection, Mode } from "@/lib/providers";
import { INVOICE_ID_PREFIXES } from "../contract/resource-schemas";
import { INVOICE_ID } from "./cursor";
import { selectInvoicesWithConnection, withConnection, type InvoiceWithConnection } from "./invoice-select";

export function directionOfId(id: string): InvoiceDirection | undefined {
  if (id.startsWith(INVOICE_ID_PREFIXES.payout)) return "payout";
  if (id.startsWith(INVOICE_ID_PREFIXES.payment)) return "payment";
  return undefined;
}

/**
 * One of the merchant's invoices of this direction with its routed connection, in one statement;
 * undefined for an unknown id and for another merchant's (not yours is not found), and, when a
 * mode is given (an API key's), for an invoice of the other mode.
 */
export async function getInvoice(db: Db, merchantId: string, direction: InvoiceDirection, id: string, mode?: Mode): Promise<InvoiceWithConnection | undefined> {
  if (directionOfId(id) !== direction || !INVOICE_ID.test(id)) return undefined;
  const [row] = await preparedGetInvoice(db).execute({ merchantId, direction, id });
  if (!row || (mode && row.invoice.testMode !== (mode === "test"))) return undefined;
  return withConnection(row);
}

/** The statement getInvoice runs (a primary-key lookup), for EXPLAIN (bench/growth.ts). */
export function getInvoiceQuery(db: Db, merchantId: string | Placeholder, direction: InvoiceDirection | Placeholder, id: string | Placeholder) {
  return selectInvoicesWithConnection(db, merchantId)
    .where(and(eq(invoices.id, id), eq(invoices.merchantId, merchantId), eq(invoices.direction, direction)))
    .limit(1);
}

const statements = new WeakMap<Db, ReturnType<typeof prepareGetInvoice>>();

function prepareGetInvoice(db: Db) {
  return getInvoiceQuery(db, sql.placeholder("merchantId"), sql.placeholder("direction"), sql.placeholder("id")).prepare("get_invoice");
}

/** getInvoice's statement, built once per database handle (the read by id is the API's hottest). */
function preparedGetInvoice(db: Db) {
  let statement = statements.get(db);
  if (!statement) statements.set(db, (statement = prepareGetInvoice(db)));
  return statement;
}

import "server-only";
import { and, desc, eq, lt, or, sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "@/lib/db/client";
import { invoices, paymentMethods } from "@/lib/db/schema";
import type { InvoiceStatus } from "@/lib/invoices/state-machine";
import { formatMinor } from "@/lib/money";
import { listPaymentMethods, type PaymentMethodView } from "@/lib/payment-methods/store";
import type { Mode } from "@/lib/providers";
import { isSafeText } from "@/lib/text-safety";

/**
 * The Customers page and a customer's page: each customer reference of the merchant in one
 * mode (the Test/Live view), from the payments that named it (`customer.reference_id`) and the
 * cards saved for it, with its counts and totals. Plain JSON for the pages.
 */

/** Money per currency: what was captured, refunded, and is still held by authorizations. */
export type CustomerTotal = { currency: string; paid: string; refunded: string; held: string };

type CustomerSummary = {
  reference: string;
  invoices: number;
  cards: number;
  /** Saved cards that can still be charged (not detached; the connection not deleted). */
  usableCards: number;
  totals: CustomerTotal[];
  lastActivity: string | null;
};

export type CustomerPage = { customers: CustomerSummary[]; nextCursor: string | null };

/** The list's page size; the keyset is the reference itself (code-point order). */
const CUSTOMER_PAGE_SIZE = 25;
/** What a reference may be: as the API stores it (text, at most 255 characters). */
const REFERENCE_MAX = 255;

const referenceOf = sql<string>`(${invoices.customer} ->> 'reference_id')`;
const PAID_STATUSES = sql.raw(`('processed', 'partially_processed', 'refunding', 'refunded', 'partially_refunded')`);

export function isCustomerReference(value: string): boolean {
  return value.trim() !== "" && value.length <= REFERENCE_MAX && isSafeText(value);
}

type Counted = { reference: string; invoices: number; cards: number; usable: number; last: string | Date | null };

/**
 * One page of customer references in code-point order, after `after`: the payments' references
 * and the saved cards' grouped together. `prefix` narrows to references starting with it.
 */
export async function listCustomers(
  db: Db,
  merchantId: string,
  input: { mode: Mode; after?: string; prefix?: string; pageSize?: number },
): Promise<CustomerPage> {
  const testMode = input.mode === "test";
  const size = input.pageSize ?? CUSTOMER_PAGE_SIZE;
  const invoiceWhere: SQL[] = [
    sql`${invoices.merchantId} = ${merchantId}`,
    sql`${invoices.testMode} = ${testMode}`,
    sql`${invoices.direction} = 'payment'`,
    sql`btrim(coalesce(${referenceOf}, '')) <> ''`,
  ];
  const cardWhere: SQL[] = [sql`pm.merchant_id = ${merchantId}`, sql`pm.test_mode = ${testMode}`];
  if (input.after !== undefined) {
    invoiceWhere.push(sql`${referenceOf} collate "C" > ${input.after}`);
    cardWhere.push(sql`pm.customer_reference collate "C" > ${input.after}`);
  }
  if (input.prefix) {
    const pattern = `${input.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    invoiceWhere.push(sql`${referenceOf} like ${pattern}`);
    cardWhere.push(sql`pm.customer_reference like ${pattern}`);
  }
  const result = await db.execute(sql`
    select "reference", sum("invoices")::int as "invoices", sum("cards")::int as "cards", sum("usable")::int as "usable", max("last") as "last"
    from (
      select ${referenceOf} as "reference", count(*) as "invoices", 0 as "cards", 0 as "usable", max(${invoices.createdAt}) as "last"
      from ${invoices} where ${sql.join(invoiceWhere, sql` and `)} group by 1
      union all
      select pm.customer_reference, 0, count(*), count(*) filter (where pm.detached_at is null and c.deleted_at is null), max(pm.created_at)
      from ${paymentMethods} pm left join connections c on c.id = pm.connection_id
      where ${sql.join(cardWhere, sql` and `)} group by 1
    ) as "both"
    group by "reference" order by "reference" collate "C" limit ${size + 1}
  `);
  const rows = rowsOf<Counted>(result);
  const page = rows.slice(0, size);
  const totals = await totalsOf(
    db,
    merchantId,
    testMode,
    page.map((row) => row.reference),
  );
  return {
    customers: page.map((row) => ({
      reference: row.reference,
      invoices: Number(row.invoices),
      cards: Number(row.cards),
      usableCards: Number(row.usable),
      totals: totals.get(row.reference) ?? [],
      lastActivity: row.last ? new Date(row.last).toISOString() : null,
    })),
    nextCursor: rows.length > size ? (page.at(-1)?.reference ?? null) : null,
  };
}

type TotalRow = { reference: string; currency: string; paid: string | null; refunded: string | null; held: string | null };

/** Each reference's money per currency, in one query. */
async function totalsOf(db: Db, merchantId: string, testMode: boolean, references: readonly string[]): Promise<Map<string, CustomerTotal[]>> {
  const out = new Map<string, CustomerTotal[]>();
  if (references.length === 0) return out;
  const result = await db.execute(sql`
    select ${referenceOf} as "reference", ${invoices.currency} as "currency",
      sum(coalesce(${invoices.processedAmountMinor}, 0)) filter (where ${invoices.status} in ${PAID_STATUSES})::text as "paid",
      sum(${invoices.refundedAmountMinor})::text as "refunded",
      sum(coalesce(${invoices.authorizedAmountMinor}, 0)) filter (where ${invoices.status} in ('authorized', 'capturing'))::text as "held"
    from ${invoices}
    where ${invoices.merchantId} = ${merchantId} and ${invoices.testMode} = ${testMode} and ${invoices.direction} = 'payment'
      and ${referenceOf} in (${sql.join(
        references.map((reference) => sql`${reference}`),
        sql`, `,
      )})
    group by 1, 2 order by 2
  `);
  for (const row of rowsOf<TotalRow>(result)) {
    const list = out.get(row.reference) ?? [];
    list.push({
      currency: row.currency,
      paid: formatMinor(BigInt(row.paid ?? "0"), row.currency),
      refunded: formatMinor(BigInt(row.refunded ?? "0"), row.currency),
      held: formatMinor(BigInt(row.held ?? "0"), row.currency),
    });
    out.set(row.reference, list);
  }
  return out;
}

type CustomerInvoice = {
  id: string;
  referenceId: string;
  status: InvoiceStatus;
  amount: string;
  currency: string;
  flow: string | null;
  createdAt: string;
};

export type CustomerDetail = {
  reference: string;
  cards: PaymentMethodView[];
  invoices: CustomerInvoice[];
  /** The cursor of the next page of invoices (created_at and id of the last shown), or null. */
  nextInvoices: string | null;
  totals: CustomerTotal[];
};

const CUSTOMER_INVOICE_PAGE_SIZE = 25;

function encodeInvoiceCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString("base64url");
}

export function decodeInvoiceCursor(value: string): { createdAt: Date; id: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [at, id] = parsed as unknown[];
    if (typeof at !== "string" || Number.isNaN(Date.parse(at)) || typeof id !== "string" || !/^[A-Za-z0-9_-]{1,128}$/.test(id)) return undefined;
    return { createdAt: new Date(at), id };
  } catch {
    return undefined;
  }
}

/**
 * One customer reference of the merchant in the mode: its saved cards (newest first, detached ones
 * too, marked), a page of its payments (newest first, keyset after `after`) and its totals.
 * Undefined when the reference has neither in this mode.
 */
export async function readCustomer(
  db: Db,
  merchantId: string,
  input: { mode: Mode; reference: string; after?: { createdAt: Date; id: string } },
): Promise<CustomerDetail | undefined> {
  if (!isCustomerReference(input.reference)) return undefined;
  const testMode = input.mode === "test";
  const conditions = [
    eq(invoices.merchantId, merchantId),
    eq(invoices.testMode, testMode),
    eq(invoices.direction, "payment"),
    sql`${referenceOf} = ${input.reference}`,
  ];
  if (input.after)
    conditions.push(or(lt(invoices.createdAt, input.after.createdAt), and(eq(invoices.createdAt, input.after.createdAt), lt(invoices.id, input.after.id)))!);
  const [cards, rows, totals] = await Promise.all([
    listPaymentMethods(db, merchantId, { mode: input.mode, customerReference: input.reference, pageSize: 100 }),
    db
      .select({
        id: invoices.id,
        referenceId: invoices.referenceId,
        status: invoices.status,
        amount: invoices.amount,
        currency: invoices.currency,
        flow: invoices.flow,
        createdAt: invoices.createdAt,
      })
      .from(invoices)
      .where(and(...conditions))
      .orderBy(desc(invoices.createdAt), desc(invoices.id))
      .limit(CUSTOMER_INVOICE_PAGE_SIZE + 1),
    totalsOf(db, merchantId, testMode, [input.reference]),
  ]);
  if (cards.methods.length === 0 && rows.length === 0 && !input.after) return undefined;
  const page = rows.slice(0, CUSTOMER_INVOICE_PAGE_SIZE);
  const last = page.at(-1);
  return {
    reference: input.reference,
    cards: cards.methods,
    invoices: page.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    nextInvoices: rows.length > CUSTOMER_INVOICE_PAGE_SIZE && last ? encodeInvoiceCursor(last) : null,
    totals: totals.get(input.reference) ?? [],
  };
}

/** How far back the search looks among payments for a customer reference (as the invoice search's prefixes do). */
const SEARCH_RECENT_PAYMENTS = 1_000;

/**
 * The header search's customers: references starting with the text, among the saved cards (an
 * index range) and the newest 1,000 payments of the mode; at most `limit`, in reference order.
 */
export async function searchCustomers(db: Db, merchantId: string, mode: Mode, text: string, limit = 5): Promise<string[]> {
  const query = text.trim();
  if (!isCustomerReference(query)) return [];
  const testMode = mode === "test";
  const pattern = `${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const result = await db.execute(sql`
    select "reference" from (
      (select ${paymentMethods.customerReference} as "reference" from ${paymentMethods}
        where ${paymentMethods.merchantId} = ${merchantId} and ${paymentMethods.testMode} = ${testMode} and ${paymentMethods.customerReference} like ${pattern}
        order by 1 limit ${limit})
      union
      (select "reference" from (
        select ${referenceOf} as "reference" from ${invoices}
        where ${invoices.merchantId} = ${merchantId} and ${invoices.direction} = 'payment' and ${invoices.testMode} = ${testMode}
        order by ${invoices.createdAt} desc, ${invoices.id} desc limit ${SEARCH_RECENT_PAYMENTS}
      ) as "recent" where "reference" like ${pattern})
    ) as "found" order by "reference" collate "C" limit ${limit}
  `);
  return rowsOf<{ reference: string }>(result).map((row) => row.reference);
}

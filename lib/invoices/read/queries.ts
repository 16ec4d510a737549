import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import type { InvoiceDirection } from "@/lib/providers";
import { INVOICE_ID_PREFIXES, invoiceListQuerySchema, type InvoiceListQuery } from "../contract/resource-schemas";
import type { InvoiceRow } from "../create/store";

export type { InvoiceListQuery } from "../contract/resource-schemas";

/** A bad query parameter; rendered as a 400 with `source.parameter`. */
export type QueryIssue = { parameter: string; code: string; message: string };

export type InvoiceListPage = { invoices: InvoiceRow[]; nextCursor: string | null };

const ID = /^(cpi|cpoi)_[A-Za-z0-9_-]{1,64}$/;
/** Dates outside this range are valid ISO 8601 but not valid PostgreSQL timestamps (year 0000). */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** One of the merchant's invoices of this direction, or undefined (also for another merchant's id). */
export async function getInvoice(db: Db, merchantId: string, direction: InvoiceDirection, id: string): Promise<InvoiceRow | undefined> {
  // Anything not shaped like an id cannot exist; checking here also keeps odd bytes (NUL) from the database.
  if (!id.startsWith(INVOICE_ID_PREFIXES[direction]) || !ID.test(id)) return undefined;
  const [row] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.merchantId, merchantId), eq(invoices.direction, direction)))
    .limit(1);
  return row;
}

type Cursor = { createdAt: string; id: string };

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Opaque to clients: the position after the last invoice of a page, newest-first order. */
export function encodeCursor(row: Pick<InvoiceRow, "createdAt" | "id">): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString("base64url");
}

export function decodeCursor(value: string): Cursor | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [createdAt, id] = parsed as unknown[];
    if (typeof createdAt !== "string" || !ISO_MS.test(createdAt)) return undefined;
    const time = Date.parse(createdAt);
    if (Number.isNaN(time) || time < EARLIEST || time > LATEST) return undefined;
    if (typeof id !== "string" || !ID.test(id)) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

const KNOWN_PARAMETERS = new Set(Object.keys(invoiceListQuerySchema.shape));

/**
 * Parses the list query. Unknown `filter[…]`/`page[…]` parameters are refused rather than ignored:
 * a typo such as `filter[referense_id]` would otherwise list every invoice.
 */
export function parseInvoiceListQuery(params: URLSearchParams): { ok: true; query: InvoiceListQuery } | { ok: false; issues: QueryIssue[] } {
  const issues: QueryIssue[] = [];
  for (const name of new Set(params.keys())) {
    if (/^(filter|page)\[/.test(name) && !KNOWN_PARAMETERS.has(name)) {
      issues.push({ parameter: name, code: "unknown_parameter", message: `Unknown parameter ${name}; use one of ${[...KNOWN_PARAMETERS].join(", ")}` });
    }
  }
  for (const [name, value] of params) {
    if (value.includes("\u0000")) issues.push({ parameter: name, code: "invalid_parameter", message: `${name} must not contain the NUL character` });
  }
  const parsed = invoiceListQuerySchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      issues.push({ parameter: String(issue.path[0] ?? ""), code: "invalid_parameter", message: issue.message });
    }
  }
  for (const name of ["filter[created_from]", "filter[created_to]"] as const) {
    const time = parsed.success && parsed.data[name] !== undefined ? Date.parse(parsed.data[name]) : undefined;
    if (time !== undefined && (time < EARLIEST || time > LATEST)) {
      issues.push({ parameter: name, code: "invalid_parameter", message: `${name} must lie between 1970 and 9999` });
    }
  }
  const after = params.get("page[after]");
  if (after !== null && after !== "" && !decodeCursor(after)) {
    issues.push({ parameter: "page[after]", code: "invalid_cursor", message: "page[after] is not a cursor from links.next; start again from the first page" });
  }
  if (issues.length || !parsed.success) return { ok: false, issues };
  return { ok: true, query: parsed.data };
}

function conditions(merchantId: string, direction: InvoiceDirection, query: InvoiceListQuery, cursor: Cursor | undefined): SQL[] {
  const where: SQL[] = [eq(invoices.merchantId, merchantId), eq(invoices.direction, direction)];
  if (query["filter[reference_id]"] !== undefined) where.push(eq(invoices.referenceId, query["filter[reference_id]"]));
  if (query["filter[status]"] !== undefined) where.push(eq(invoices.status, query["filter[status]"]));
  if (query["filter[created_from]"] !== undefined) where.push(gte(invoices.createdAt, new Date(query["filter[created_from]"])));
  if (query["filter[created_to]"] !== undefined) where.push(lt(invoices.createdAt, new Date(query["filter[created_to]"])));
  if (cursor) where.push(sql`(${invoices.createdAt}, ${invoices.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id})`);
  return where;
}

/**
 * One page, newest first. Keyset pagination on (created_at, id): stable while invoices are being
 * created (new ones sort before the cursor), so pages have no duplicates and no gaps.
 * created_from is inclusive, created_to exclusive.
 */
export async function listInvoices(db: Db, merchantId: string, direction: InvoiceDirection, query: InvoiceListQuery): Promise<InvoiceListPage> {
  const after = query["page[after]"];
  const cursor = after === undefined ? undefined : decodeCursor(after);
  if (after !== undefined && !cursor) throw new Error("listInvoices: invalid cursor; parse the query with parseInvoiceListQuery");
  const size = query["page[size]"];
  const rows = await db
    .select()
    .from(invoices)
    .where(and(...conditions(merchantId, direction, query, cursor)))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(size + 1);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { invoices: page, nextCursor: rows.length > size && last ? encodeCursor(last) : null };
}

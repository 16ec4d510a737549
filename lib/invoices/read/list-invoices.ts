import { and, desc, eq, gte, like, lt, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connections, invoices } from "@/lib/db/schema";
import type { InvoiceDirection } from "@/lib/providers";
import { encodeCursor } from "./cursor";
import { escapeLike, nameInPrefixRange, searchConditions } from "./search";
import type { InvoiceListFilter } from "./filters";
import { selectInvoicesWithConnection, withConnection, type InvoiceWithConnection } from "./invoice-select";

export type InvoicePage = { invoices: InvoiceWithConnection[]; nextCursor: string | null };

/**
 * The first text after every text that starts with `prefix`, in code point order: the prefix with
 * its last character raised by one (undefined past the last code point).
 */
export function prefixEnd(prefix: string): string | undefined {
  const chars = Array.from(prefix);
  const last = chars.pop()?.codePointAt(0);
  if (last === undefined || last >= 0x10ffff) return undefined;
  return chars.join("") + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
}

/**
 * A value of the statement: the value itself, or (when the statement is prepared once for every
 * filter of its shape, `preparedList`) a placeholder of that name, filled in when it runs.
 */
type Bind = <T>(name: string, value: T) => T | Placeholder;
const inline: Bind = (_name, value) => value;

/** The conditions other than merchant, direction and mode, which pick the index branch. */
function conditions(filter: InvoiceListFilter, options: ListOptions, bind: Bind = inline): SQL[] {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(invoices.status, bind("status", filter.status)));
  if (filter.provider) where.push(eq(connections.provider, bind("provider", filter.provider)));
  if (filter.reference?.match === "exact") where.push(eq(invoices.referenceId, filter.reference.value));
  if (filter.reference?.match === "prefix") {
    const prefix = filter.reference.value;
    // A prefix match also finds the exact reference; LIKE's wildcards in the text are taken literally.
    where.push(like(invoices.referenceId, `${escapeLike(prefix)}%`));
    // PostgreSQL reads LIKE 'abc%' from an index only under the C collation; under C.UTF-8 it would
    // walk every invoice of the branch. The same prefix as a range reads invoices_reference_unique.
    if (options.codePointOrder) {
      const end = prefixEnd(prefix);
      where.push(gte(invoices.referenceId, prefix));
      if (end !== undefined) where.push(lt(invoices.referenceId, end));
    }
  }
  if (filter.createdFrom) where.push(sql`${invoices.createdAt} >= ${bind("createdFrom", filter.createdFrom.toISOString())}::timestamptz`);
  if (filter.createdBefore) where.push(sql`${invoices.createdAt} < ${bind("createdBefore", filter.createdBefore.toISOString())}::timestamptz`);
  if (filter.after)
    where.push(
      sql`(${invoices.createdAt}, ${invoices.id}) < (${bind("afterCreatedAt", filter.after.createdAt)}::timestamptz, ${bind("afterId", filter.after.id)})`,
    );
  return where;
}

const DIRECTIONS: readonly InvoiceDirection[] = ["payment", "payout"];

/**
 * A name-prefix search reads at most this many of a branch's newest invoices (the list's index, in
 * page order) before it turns to the name index. At 10^6 invoices a prefix shared by 1 customer in
 * 20 matches tens of thousands of invoices: reading them all by the name index to keep the newest
 * page took over 100 ms, while the newest invoices hold a page of them within a few hundred rows.
 * A rare prefix is the name index's case: few rows to read and sort. Between the two, a prefix
 * whose newest page is not within these rows matches under pageSize ÷ NAME_WALK_ROWS of the
 * branch, so the name index reads no more than that share.
 */
export const NAME_WALK_ROWS = 1000;

/**
 * The ids of one page, newest first. invoices_list_idx is (merchant, direction, test_mode,
 * created_at desc, id desc): for each direction and mode the filter leaves open (at most four
 * branches), one index scan already in page order stops after pageSize + 1 rows, and the branches
 * are merged. A single ORDER BY over all of the merchant's invoices would read and sort every one
 * of them (the dashboard lists both directions), which at a million invoices takes seconds.
 */
function branchesOf(db: Db, merchantId: string, filter: InvoiceListFilter, options: ListOptions, limit?: number, bind: Bind = inline) {
  const merchant = bind("merchantId", merchantId);
  const pageLimit = limit === undefined ? undefined : bind("limit", limit);
  const modes = filter.mode ? [filter.mode === "test"] : [false, true];
  const directions = filter.direction ? [filter.direction] : DIRECTIONS;
  const select = <F extends Record<string, unknown>>(fields: F, where: (SQL | undefined)[]) => {
    const query = db
      .select(fields as never)
      .from(invoices)
      .$dynamic();
    if (filter.provider) query.innerJoin(connections, and(eq(connections.id, invoices.connectionId), eq(connections.merchantId, merchant)));
    return query.where(and(eq(invoices.merchantId, merchant), ...where, ...conditions(filter, options, bind)));
  };
  const branch = (...where: (SQL | undefined)[]) => {
    const query = select({ id: invoices.id, createdAt: invoices.createdAt }, where);
    return pageLimit === undefined ? query : query.orderBy(desc(invoices.createdAt), desc(invoices.id)).limit(pageLimit);
  };
  const directionOf = filter.direction ? eq(invoices.direction, filter.direction) : undefined;
  /**
   * A name or reference prefix (`prefixOf`: the lower-cased key its index holds) in one mode: per direction, the branch's newest NAME_WALK_ROWS invoices (the
   * list's index) filtered by the name; a walk that found a whole page has the direction's newest
   * matches. Only if one did not, the name index finds every match (a one-time filter: it is not
   * read otherwise). The page is the same either way; only the rows read differ.
   */
  const prefixBranch = (testMode: boolean, where: SQL, prefixOf: SQL, text: string, pageLimit: number) => {
    const walks = directions.map((direction, i) => {
      const newest = select({ id: invoices.id, createdAt: invoices.createdAt, searchName: sql<string | null>`${prefixOf}`.as("search_name") }, [
        eq(invoices.direction, direction),
        eq(invoices.testMode, testMode),
      ])
        .orderBy(desc(invoices.createdAt), desc(invoices.id))
        .limit(NAME_WALK_ROWS);
      const name = sql.identifier(`walk_${i}`);
      const walk = sql`select "id", "created_at" from (${newest}) as "newest" where ${nameInPrefixRange(sql`"search_name"`, text)} order by "created_at" desc, "id" desc limit ${pageLimit}`;
      return { name, walk };
    });
    const short = sql.join(
      walks.map(({ name }) => sql`(select count(*) from ${name}) < ${pageLimit}`),
      sql` or `,
    );
    // OFFSET 0 keeps the planner from walking the list's index for this too (its estimate of a
    // prefix's share is a constant, so it would, and a rare prefix would read the whole branch).
    const matches = select({ id: invoices.id, createdAt: invoices.createdAt }, [eq(invoices.testMode, testMode), directionOf, where, sql`(${short})`]);
    const everyMatch = sql`select "id", "created_at" from (${matches} offset 0) as "matches" order by "created_at" desc, "id" desc limit ${pageLimit}`;
    return sql`with ${sql.join(
      walks.map(({ name, walk }) => sql`${name} as (${walk})`),
      sql`, `,
    )} ${sql.join(
      walks.map(({ name }) => sql`select "id", "created_at" from ${name}`),
      sql` union all `,
    )} union all (${everyMatch})`;
  };
  // A search: one branch per kind of key and mode, each an index probe of its own (search.ts);
  // an invoice found by two keys is one row of the union.
  const branches = filter.search
    ? searchConditions(filter.search).flatMap(({ where, prefixOf }) =>
        modes.map((testMode) =>
          prefixOf && limit !== undefined && limit * 4 <= NAME_WALK_ROWS
            ? prefixBranch(testMode, where, prefixOf, filter.search!, limit)
            : branch(eq(invoices.testMode, testMode), directionOf, where),
        ),
      )
    : directions.flatMap((direction) => modes.map((testMode) => branch(eq(invoices.direction, direction), eq(invoices.testMode, testMode))));
  return sql.join(
    branches.map((branch) => sql`(${branch})`),
    filter.search ? sql` union ` : sql` union all `,
  );
}

/** The ids of one page (pageSize + 1 rows, to tell whether another follows), for reads that pick their own columns (the CSV export). */
export function pageIds(db: Db, merchantId: string, filter: InvoiceListFilter, options: ListOptions, bind: Bind = inline): SQL {
  const limit = filter.pageSize + 1;
  return sql`select "id" from (${branchesOf(db, merchantId, filter, options, limit, bind)}) as "page" order by "created_at" desc, "id" desc limit ${bind("limit", limit)}`;
}

/** How many invoices the filter selects in all (the export's progress); the cursor is ignored. */
export async function countInvoices(db: Db, merchantId: string, filter: InvoiceListFilter): Promise<number> {
  const options = { codePointOrder: filter.reference?.match === "prefix" && (await sortsByCodePoint(db)) };
  const result = await db.execute(
    sql`select count(*)::int as "count" from (${branchesOf(db, merchantId, { ...filter, after: undefined }, options)}) as "selected"`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { count: number }[];
  return Number(rows[0]?.count ?? 0);
}

export type ListOptions = {
  /** The database sorts text by code point, so the texts starting with a prefix are one range. */
  codePointOrder: boolean;
};

const codePointOrder = new WeakMap<Db, Promise<boolean>>();

/**
 * Whether the database's default collation sorts by code point: C and POSIX, glibc's C.UTF-8 and
 * the builtin provider's locales. Not ICU nor language locales (en_US sorts "a-b" between "ab" and
 * "ac"), where a prefix is not a range. Asked once per database handle.
 */
export function sortsByCodePoint(db: Db): Promise<boolean> {
  let known = codePointOrder.get(db);
  if (!known) {
    known = db
      .execute(sql`select d.datcollate as "collate", to_jsonb(d) ->> 'datlocprovider' as "provider" from pg_database d where d.datname = current_database()`)
      .then((result) => {
        const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { collate: string; provider: string | null }[];
        const row = rows[0];
        if (!row) return false;
        if (row.provider === "b") return true;
        return (row.provider ?? "c") === "c" && ["C", "POSIX", "C.UTF-8", "C.utf8"].includes(row.collate);
      })
      .catch(() => false);
    codePointOrder.set(db, known);
  }
  return known;
}

/** The statement listInvoices runs, for EXPLAIN (bench/growth.ts). */
export function listInvoicesQuery(db: Db, merchantId: string, filter: InvoiceListFilter, options: ListOptions, bind: Bind = inline) {
  const merchant = bind("merchantId", merchantId);
  return selectInvoicesWithConnection(db, merchant)
    .where(and(eq(invoices.merchantId, merchant), sql`${invoices.id} in (${pageIds(db, merchantId, filter, options, bind)})`))
    .orderBy(desc(invoices.createdAt), desc(invoices.id));
}

/** The filter's values a prepared list statement takes, by placeholder name. */
function listParameters(merchantId: string, filter: InvoiceListFilter): Record<string, unknown> {
  return {
    merchantId,
    limit: filter.pageSize + 1,
    status: filter.status,
    provider: filter.provider,
    createdFrom: filter.createdFrom?.toISOString(),
    createdBefore: filter.createdBefore?.toISOString(),
    afterCreatedAt: filter.after?.createdAt,
    afterId: filter.after?.id,
  };
}

/** What decides a list statement's text when it has no search and no reference: which filters are set. */
function shapeOf(filter: InvoiceListFilter): string | undefined {
  if (filter.search !== undefined || filter.reference !== undefined) return undefined;
  return [
    filter.direction ?? "",
    filter.mode ?? "",
    filter.status ? "s" : "",
    filter.provider ? "p" : "",
    filter.createdFrom ? "f" : "",
    filter.createdBefore ? "b" : "",
    filter.after ? "a" : "",
  ].join(",");
}

type ListStatement = ReturnType<ReturnType<typeof listInvoicesQuery>["prepare"]>;
const listStatements = new WeakMap<Db, Map<string, ListStatement>>();
/** Bounds the cache: 2 directions x 2 modes x 2^5 filter sets at most, far below it. */
const LIST_SHAPES_MAX = 256;

/**
 * The list statement for the filter's shape, prepared once per database handle (placeholders for
 * every value), or undefined for a search or a reference, whose statements depend on their text.
 */
function preparedList(db: Db, filter: InvoiceListFilter): ListStatement | undefined {
  const shape = shapeOf(filter);
  if (shape === undefined) return undefined;
  let byShape = listStatements.get(db);
  if (!byShape) listStatements.set(db, (byShape = new Map()));
  let statement = byShape.get(shape);
  if (!statement && byShape.size < LIST_SHAPES_MAX) {
    const bind: Bind = (name) => sql.placeholder(name);
    statement = listInvoicesQuery(db, "", filter, { codePointOrder: false }, bind).prepare(`list_invoices_${byShape.size}`);
    byShape.set(shape, statement);
  }
  return statement;
}

/**
 * One page of the merchant's invoices, newest first, with the routed connection, in one statement.
 * Keyset pagination on (created_at, id): invoices created meanwhile sort before the cursor, so
 * later pages neither repeat nor skip rows, and no page costs more than the first (no OFFSET, no
 * count). The API and the dashboard both list through here.
 */
export async function listInvoices(db: Db, merchantId: string, filter: InvoiceListFilter): Promise<InvoicePage> {
  const prepared = preparedList(db, filter);
  const rows = prepared
    ? await prepared.execute(listParameters(merchantId, filter))
    : await listInvoicesQuery(db, merchantId, filter, { codePointOrder: filter.reference?.match === "prefix" && (await sortsByCodePoint(db)) });
  const page = rows.slice(0, filter.pageSize).map(withConnection);
  const last = page.at(-1);
  return { invoices: page, nextCursor: rows.length > filter.pageSize && last ? encodeCursor(last) : null };
}

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
}));

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { GET as EXPORT } from "@/app/api/dashboard/invoices/export/route";
import { GET as PAYMENTS } from "@/app/api/commerce/payment-invoices/route";
import { GET as PAYOUTS } from "@/app/api/commerce/payout-invoices/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { invoiceAttempts } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { invoiceCsvStream, INVOICE_CSV_COLUMNS } from "@/lib/invoices/export/invoice-csv";
import { readDashboardListQuery, type DashboardInvoiceFilters } from "@/lib/invoices/read/filters";
import { listInvoices, NAME_WALK_ROWS } from "@/lib/invoices/read/list-invoices";
import type { InvoiceRow } from "@/lib/invoices/store";
import { PAYMENT_EXAMPLES, payoutExample } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";

const t = setUpTestDb();
const secret = randomBytes(32);
const B_PAYMENT = PAYMENT_EXAMPLES["B: EUR without customer"];
const C_AMD = PAYMENT_EXAMPLES["C: AMD"];

beforeAll(() => {
  vi.spyOn(logger, "info").mockImplementation(() => undefined);
});
afterAll(() => vi.restoreAllMocks());
beforeEach(() => {
  resetRateLimits();
  session.userId = undefined;
});

async function create(m: TeamMerchant, direction: "payment" | "payout", example: unknown, overrides: Record<string, unknown> = {}): Promise<InvoiceRow> {
  const body = bodyFor(example, m.account, { reference_id: newReference(), ...overrides });
  const result = await createInvoice(t.db, m.merchant, direction, body, { requestId: "req-search", secretKey: () => secret });
  if (result.kind !== "created") throw new Error(`setup: ${JSON.stringify(result)}`);
  return result.invoice;
}

async function attempt(invoice: InvoiceRow, providerReference: string, seq = 1) {
  await t.db.insert(invoiceAttempts).values({
    id: `att_${randomBytes(8).toString("hex")}`,
    invoiceId: invoice.id,
    seq,
    connectionId: invoice.connectionId!,
    reason: "routing_order",
    status: "succeeded",
    providerReference,
    idempotencyKey: randomBytes(12).toString("hex"),
  });
}

/** Every row of a CSV text (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else {
      cell += c;
    }
  }
  if (cell !== "" || row.length > 0) throw new Error(`CSV does not end with CRLF: ${JSON.stringify(text.slice(-40))}`);
  return rows;
}

const column = (name: string) => INVOICE_CSV_COLUMNS.findIndex((c) => c.header === name);

async function exportAs(userId: string | undefined, query: string, viewMode: "test" | "live" = "test") {
  session.userId = userId;
  const request = new Request(`http://test/api/dashboard/invoices/export?${query}`, { headers: { cookie: `view_mode=${viewMode}` } });
  return EXPORT(request, { params: Promise.resolve({}) });
}

function apiList(route: typeof PAYMENTS, key: string, query: string, accept = "text/csv") {
  const request = new Request(`http://test/api/commerce/x-invoices?${query}`, { headers: { authorization: `Bearer ${key}`, accept } });
  return route(request, { params: Promise.resolve({}) });
}

describe("search and export", () => {
  let m: TeamMerchant;
  let stranger: TeamMerchant;
  let ada: InvoiceRow, tricky: InvoiceRow, payout: InvoiceRow, live: InvoiceRow;

  beforeAll(async () => {
    m = await teamMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h");
    await connect(t.db, m.merchantId, "provider-a", "provider_account");
    await connect(t.db, m.merchantId, "provider-c", "provider_account", { mode: "live" });
    ada = await create(m, "payment", B_PAYMENT, { reference_id: "order-ada-1", customer: { name: "Ada Lovelace", email: "  Ada.Lovelace@Example.com " } });
    tricky = await create(m, "payment", B_PAYMENT, {
      reference_id: "=cmd|'/c calc'!A1",
      customer: { name: 'O"Brien, Zoë\nÜnicode', email: "+tricky@example.com" },
    });
    payout = await create(m, "payout", payoutExample(), {
      reference_id: "payout-ada",
      fields: { card_number: "4000 0000 0000 0077" },
      options: { auto_process: false },
      customer: { name: "Grace Hopper", email: "grace@example.com" },
    });
    live = await create(m, "payment", C_AMD, {
      reference_id: "order-ada-live",
      test_mode: false,
      customer: { name: "Ada Live", email: "ada.lovelace@example.com" },
    });
    await attempt(ada, "prov-ada-42");
    stranger = await teamMerchant(t.db);
    await connect(t.db, stranger.merchantId, "provider-b", "h2h");
    await connect(t.db, stranger.merchantId, "provider-a", "provider_account");
    // The stranger's invoices share every key with merchant m's: none of them may ever show.
    const theirs = await create(stranger, "payment", B_PAYMENT, {
      reference_id: "order-ada-1",
      customer: { name: "Ada Lovelace", email: "ada.lovelace@example.com" },
    });
    await create(stranger, "payout", payoutExample(), {
      reference_id: "payout-ada",
      fields: { card_number: "4000 0000 0000 0077" },
      options: { auto_process: false },
      customer: { name: "Grace Hopper", email: "grace@example.com" },
    });
    await attempt(theirs, "prov-ada-42");
    await attempt(theirs, `${ada.id}`, 2);
  });

  const search = async (q: string, viewMode: "test" | "live" = "test", merchant = () => m) => {
    const query = readDashboardListQuery({ q }, { viewMode });
    expect(query.invalid).toEqual([]);
    return (await listInvoices(t.db, merchant().merchantId, query.filter)).invoices.map((row) => row.id);
  };

  it("finds an invoice by each kind of key, in the merchant's own data and the view's mode only", async () => {
    expect(await search(ada.id)).toEqual([ada.id]);
    expect(await search("order-ada-1")).toEqual([ada.id]);
    expect(await search("prov-ada-42")).toEqual([ada.id]);
    expect(await search("ADA.LOVELACE@example.COM")).toEqual([ada.id]);
    expect(await search("ada lov")).toEqual([ada.id]);
    expect(await search('o"brien')).toEqual([tricky.id]);
    expect(await search("0077")).toEqual([payout.id]);
    expect(payout.cardLastFour).toBe("0077");
    // The Live view finds the live invoice by the same e-mail, and none of the test ones.
    expect(await search("ada.lovelace@example.com", "live")).toEqual([live.id]);
    expect(await search(ada.id, "live")).toEqual([]);
    // Nothing of the other merchant's, though its invoices carry the same keys (and one names m's id as its provider reference).
    expect(await search("payout-ada", "test", () => stranger)).toHaveLength(1);
    expect(await search(payout.id, "test", () => stranger)).toEqual([]);
    expect(await search(ada.id, "test", () => stranger)).toHaveLength(1);
    expect(await search("nothing-like-this")).toEqual([]);
    // Name prefixes are prefixes: the middle of a name finds nothing, nor do LIKE wildcards.
    expect(await search("lovelace")).toEqual([]);
    expect(await search("%")).toEqual([]);
  });

  it("a search text that cannot be one (too long) is named and left out", () => {
    expect(readDashboardListQuery({ q: "x".repeat(201) }).invalid).toEqual(["q"]);
  });

  it("exports the filtered list as CSV, spreadsheet-safe, with the exact amounts and nothing of another merchant or mode", async () => {
    const response = await exportAs(m.ownerId, "type=payment");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="invoices-test-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get("x-total-count")).toBe("2");
    const rows = parseCsv(await response.text());
    expect(rows[0]).toEqual(INVOICE_CSV_COLUMNS.map((c) => c.header));
    expect(rows.slice(1).map((row) => row[0])).toEqual([tricky.id, ada.id]);
    const [trickyRow, adaRow] = rows.slice(1);
    expect(adaRow![column("amount")]).toBe("100.50");
    expect(adaRow![column("currency")]).toBe("EUR");
    expect(adaRow![column("customer_email")]).toBe("Ada.Lovelace@Example.com");
    expect(adaRow![column("provider_reference")]).toBe("prov-ada-42");
    expect(adaRow![column("provider")]).toBe("provider-b");
    expect(trickyRow![column("reference_id")]).toBe("'=cmd|'/c calc'!A1");
    expect(trickyRow![column("customer_email")]).toBe("'+tricky@example.com");
    expect(trickyRow![column("customer_name")]).toBe('O"Brien, Zoë\nÜnicode');
    const payouts = parseCsv(await (await exportAs(m.ownerId, "q=0077")).text());
    expect(payouts.slice(1).map((row) => [row[0], row[column("card_last_four")], row[column("amount")]])).toEqual([[payout.id, "0077", "250.75"]]);
    const text = await (await exportAs(m.ownerId, "")).text();
    expect(text).not.toContain("4000000000000077");
    expect(text).not.toContain(live.id);
    const liveRows = parseCsv(await (await exportAs(m.ownerId, "", "live")).text());
    expect(liveRows.slice(1).map((row) => row[0])).toEqual([live.id]);
    expect(liveRows[1]![column("amount")]).toBe("5000.00");
  });

  it("refuses an export without a session (401) and to a role without export (403), and names a bad filter (400, source.parameter)", async () => {
    expect((await exportAs(undefined, "")).status).toBe(401);
    const bad = await exportAs(m.ownerId, "status=bogus&from=2024-02-30&type=all");
    expect(bad.status).toBe(400);
    const errors = ((await bad.json()) as { errors: { source: { parameter: string } }[] }).errors;
    expect(errors.map((error) => error.source.parameter).sort()).toEqual(["from", "status"]);
    // Exports are for owners and finance (the permission table): a support member sees invoices but may not export them.
    expect((await exportAs(m.supportId, "")).status).toBe(403);
  });

  it("answers the API list with Accept: text/csv, same filters, same refusals as the JSON list", async () => {
    const csv = await apiList(PAYMENTS, m.key, "filter[reference_id]=order-ada-1");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(
      parseCsv(await csv.text())
        .slice(1)
        .map((row) => row[0]),
    ).toEqual([ada.id]);
    // Every page: page[size]=1 does not cut the CSV; a test key exports the test payments only, never the live one.
    const everyPage = parseCsv(await (await apiList(PAYMENTS, m.key, "page[size]=1")).text())
      .slice(1)
      .map((row) => row[0]);
    expect(everyPage.sort()).toEqual([ada.id, tricky.id].sort());
    expect(
      parseCsv(await (await apiList(PAYOUTS, m.key, "")).text())
        .slice(1)
        .map((row) => row[0]),
    ).toEqual([payout.id]);
    const json = await apiList(PAYMENTS, m.key, "filter[status]=nope&filter[bogus]=1", "application/vnd.api+json");
    const refused = await apiList(PAYMENTS, m.key, "filter[status]=nope&filter[bogus]=1");
    expect(refused.status).toBe(json.status);
    expect(refused.status).toBe(400);
    const strip = (body: { errors: unknown[] }) => body.errors.map((e) => ({ ...(e as object), meta: undefined, id: undefined }));
    expect(strip(await refused.json())).toEqual(strip(await json.json()));
    // Another merchant's key sees none of m's invoices.
    const theirs = parseCsv(await (await apiList(PAYMENTS, stranger.key, "")).text());
    expect(theirs.slice(1).map((row) => row[0])).not.toContain(ada.id);
  });
});

describe("a reference found by its beginning, case ignored", () => {
  it("finds a merchant's reference by a prefix in any case, in both directions, within the merchant and the view's mode, wildcards taken literally", async () => {
    const m = await teamMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h");
    await connect(t.db, m.merchantId, "provider-a", "provider_account");
    await connect(t.db, m.merchantId, "provider-c", "provider_account", { mode: "live" });
    const order = await create(m, "payment", B_PAYMENT, { reference_id: "ORDER-1234" });
    const payout = await create(m, "payout", payoutExample(), {
      reference_id: "Order-12-payout",
      fields: { card_number: "4000 0000 0000 0077" },
      options: { auto_process: false },
    });
    const sale = await create(m, "payment", B_PAYMENT, { reference_id: "50%_OFF-1" });
    const live = await create(m, "payment", C_AMD, { reference_id: "ORDER-1200", test_mode: false });
    const stranger = await teamMerchant(t.db);
    await connect(t.db, stranger.merchantId, "provider-b", "h2h");
    const theirs = await create(stranger, "payment", B_PAYMENT, { reference_id: "order-1234" });
    const search = async (q: string, viewMode: "test" | "live" = "test", merchant = m) => {
      const query = readDashboardListQuery({ q }, { viewMode });
      expect(query.invalid).toEqual([]);
      return (await listInvoices(t.db, merchant.merchantId, query.filter)).invoices.map((row) => row.id);
    };
    expect(await search("order-12")).toEqual([payout.id, order.id]);
    expect(await search("ORDER-123")).toEqual([order.id]);
    expect(await search("order-1234")).toEqual([order.id]);
    expect(await search("Order-12", "live")).toEqual([live.id]);
    expect(await search("order-12", "test", stranger)).toEqual([theirs.id]);
    // A prefix, not any part; LIKE's wildcards are the characters themselves.
    expect(await search("der-12")).toEqual([]);
    expect(await search("50%_o")).toEqual([sale.id]);
    expect(await search("5%")).toEqual([]);
    expect(await search("50_")).toEqual([]);
  });
});

describe("a name prefix at the edges of the newest invoices the search reads first", () => {
  it("finds the same page whether the newest NAME_WALK_ROWS invoices hold a whole page of matches, a part of one, or none, and pages on past them", async () => {
    const m = await teamMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h");
    await connect(t.db, m.merchantId, "provider-a", "provider_account");
    const template = await create(m, "payment", B_PAYMENT, { customer: { name: "Template", email: "t@example.com" } });
    const total = NAME_WALK_ROWS + 400;
    // Newest first (n = 1 is the newest): "Dense" every 7th invoice, "Sparse" 10 times among the
    // newest NAME_WALK_ROWS and 30 times after them, "Late" only after them, and "dense" in lower
    // case as a payout among them (the same prefix, the other direction).
    const name = sql`case when n % 7 = 0 then 'Dense ' || n
      when (n <= ${NAME_WALK_ROWS} and n % 97 = 0) or (n > ${NAME_WALK_ROWS} and n % 13 = 0) then 'Sparse ' || n
      when n > ${NAME_WALK_ROWS} and n % 50 = 1 then 'Late ' || n else 'Other ' || n end`;
    await t.db.execute(sql`
      insert into invoices (id, merchant_id, direction, reference_id, request_hash, connection_id, routing_reason, status, service, currency,
        amount, amount_is_number, amount_minor, test_mode, options, customer, resolved_customer, created_at, updated_at)
      select 'cpi_walk' || lpad(n::text, 6, '0') || ${m.merchantId.slice(-6)}, merchant_id, direction, 'walk-' || n, request_hash, connection_id,
        routing_reason, status, service, currency, amount, amount_is_number, amount_minor, test_mode, options, customer,
        jsonb_set(resolved_customer, '{name}', to_jsonb(${name})), created_at - n * interval '1 second', updated_at
      from invoices, generate_series(1, ${total}) n where id = ${template.id}`);
    const payout = await create(m, "payout", payoutExample(), { options: { auto_process: false }, customer: { name: "dense payout", email: "d@example.com" } });
    await t.db.execute(sql`update invoices set created_at = now() - interval '100 seconds' where id = ${payout.id}`);

    /** Every invoice of the test view whose name starts with the prefix, newest first, read without the search. */
    const expected = async (prefix: string) => {
      const result = await t.db.execute(sql`select id from invoices where merchant_id = ${m.merchantId} and test_mode
        and lower(resolved_customer ->> 'name') like ${`${prefix.toLowerCase()}%`} order by created_at desc, id desc`);
      return ((Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { id: string }[]).map((row) => row.id);
    };
    const everyPage = async (q: string, extra: Record<string, string> = {}) => {
      const ids: string[] = [];
      let after: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listInvoices>> = await listInvoices(
          t.db,
          m.merchantId,
          readDashboardListQuery({ q, ...extra, ...(after ? { after } : {}) }, { viewMode: "test" }).filter,
        );
        ids.push(...page.invoices.map((row) => row.id));
        after = page.nextCursor;
      } while (after);
      return ids;
    };
    for (const prefix of ["Dense", "Sparse", "Late", "sPARSE 1", "Nobody"]) {
      const want = await expected(prefix);
      expect(await everyPage(prefix), prefix).toEqual(want);
    }
    expect((await expected("Dense")).length).toBeGreaterThan(2 * 25);
    expect((await expected("Late")).length).toBeGreaterThan(0);
    expect(await everyPage("dense")).toContain(payout.id);
    expect(await everyPage("dense", { type: "payout" })).toEqual([payout.id]);
    expect(await everyPage("sparse", { type: "payment" })).toEqual(await expected("Sparse"));
  });
});

describe("the export's batches", () => {
  it("reads 2,500 invoices in keyset batches of 1,000 and writes exactly the filtered list", async () => {
    const m = await teamMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h");
    const template = await create(m, "payment", B_PAYMENT);
    // 2,499 more, copied from the template in one statement, a millisecond apart.
    await t.db.execute(sql`
      insert into invoices (id, merchant_id, direction, reference_id, request_hash, connection_id, routing_reason, status, service, currency,
        amount, amount_is_number, amount_minor, test_mode, options, customer, resolved_customer, created_at, updated_at)
      select 'cpi_bulk' || lpad(n::text, 6, '0') || ${m.merchantId.slice(-6)}, merchant_id, direction, 'bulk-' || n, request_hash, connection_id,
        routing_reason, case when n % 5 = 0 then 'expired' else status end, service, currency, amount, amount_is_number, amount_minor, test_mode,
        options, customer, resolved_customer, created_at - n * interval '1 millisecond', updated_at
      from invoices, generate_series(1, 2499) n where id = ${template.id}`);
    const filter = readDashboardListQuery({}, { viewMode: "test" }).filter;
    const batches: number[] = [];
    const text = await new Response(invoiceCsvStream(t.db, m.merchantId, filter, { batchSize: 1000, onBatch: (rows) => batches.push(rows) })).text();
    expect(batches).toEqual([1000, 1000, 500]);
    const exported = parseCsv(text)
      .slice(1)
      .map((row) => row[0]);
    expect(exported).toHaveLength(2500);
    // The same rows in the same order as the list's pages.
    const listed: string[] = [];
    let after: string | null | undefined;
    do {
      const query = readDashboardListQuery(after ? { after } : {}, { viewMode: "test" });
      const page = await listInvoices(t.db, m.merchantId, { ...query.filter, pageSize: 100 });
      listed.push(...page.invoices.map((row) => row.id));
      after = page.nextCursor;
    } while (after);
    expect(exported).toEqual(listed);
    // A filter exports what it selects, and a stream read only partly stops reading the database.
    const expired: DashboardInvoiceFilters = { status: "expired" };
    const expiredFilter = readDashboardListQuery(expired, { viewMode: "test" }).filter;
    const reads: number[] = [];
    const stream = invoiceCsvStream(t.db, m.merchantId, expiredFilter, { batchSize: 200, onBatch: (rows) => reads.push(rows) });
    const reader = stream.getReader();
    await reader.read(); // header
    await reader.read(); // first batch
    await reader.cancel();
    expect(reads).toEqual([200]);
    const all = parseCsv(await new Response(invoiceCsvStream(t.db, m.merchantId, expiredFilter)).text());
    expect(all).toHaveLength(1 + 499);
  });
});

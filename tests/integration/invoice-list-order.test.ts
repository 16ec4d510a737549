import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { invoices } from "@/lib/db/schema";
import { createInvoice, type CreateInvoiceResult } from "@/lib/invoices/create/create-invoice";
import type { InvoiceRow } from "@/lib/invoices/store";
import { listDashboardInvoices } from "@/lib/invoices/read/dashboard-invoices";
import { readApiListQuery, readDashboardListQuery, type InvoiceListFilter } from "@/lib/invoices/read/filters";
import { listInvoices, prefixEnd } from "@/lib/invoices/read/list-invoices";
import { PAYMENT_EXAMPLES, payoutSpecExample } from "@/tests/fixtures/invoices";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";

/**
 * listInvoices reads one index branch per direction and mode the filter leaves open and merges
 * them (lib/invoices/read/list-invoices.ts). Invoices of all four branches interleave in time
 * here, several on the same millisecond, so every page boundary can fall between branches.
 */
const t = setUpTestDb();
const EUR = PAYMENT_EXAMPLES["B: EUR with customer"];

let m: InvoiceMerchant;
let all: InvoiceRow[];

const invoiceOf = (result: CreateInvoiceResult) => {
  if (result.kind !== "created") throw new Error(`expected a created invoice, got ${result.kind}`);
  return result.invoice;
};

const newestFirst = (a: InvoiceRow, b: InvoiceRow) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);

beforeAll(async () => {
  m = await invoiceMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h");
  await connect(t.db, m.merchantId, "provider-a", "h2h");
  const created: InvoiceRow[] = [];
  for (let i = 0; i < 14; i++)
    created.push(invoiceOf(await createInvoice(t.db, m.merchant, "payment", bodyFor(EUR, m.account, { reference_id: newReference() }))));
  for (let i = 0; i < 10; i++) {
    const body = bodyFor(payoutSpecExample(), m.account, { reference_id: newReference() });
    created.push(invoiceOf(await createInvoice(t.db, m.merchant, "payout", body)));
  }
  // Spread over both modes and 8 instants (3 invoices on each), so branches interleave and tie.
  const base = Date.UTC(2026, 0, 1);
  for (const [i, row] of created.entries()) {
    await t.db
      .update(invoices)
      .set({ testMode: i % 3 !== 0, createdAt: new Date(base + (i % 8) * 1000), status: i % 4 === 0 ? "expired" : "created" })
      .where(eq(invoices.id, row.id));
  }
  all = (await t.db.select().from(invoices).where(eq(invoices.merchantId, m.merchantId))).sort(newestFirst);
  expect(new Set(all.map((row) => `${row.direction} ${row.testMode}`)).size).toBe(4);
});

async function everyPage(filter: InvoiceListFilter): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pages = 0;
  let after: InvoiceListFilter["after"];
  for (;;) {
    const page = await listInvoices(t.db, m.merchantId, { ...filter, after });
    ids.push(...page.invoices.map((row) => row.id));
    pages += 1;
    if (!page.nextCursor) return { ids, pages };
    const [createdAt, id] = JSON.parse(Buffer.from(page.nextCursor, "base64url").toString("utf8")) as [string, string];
    after = { createdAt, id };
  }
}

describe("listInvoices across index branches", () => {
  it.each<[string, Partial<InvoiceListFilter>, (row: InvoiceRow) => boolean]>([
    ["every direction and mode", {}, () => true],
    ["test mode, both directions (the dashboard's Test view)", { mode: "test" }, (row) => row.testMode],
    ["live mode, both directions", { mode: "live" }, (row) => !row.testMode],
    ["payouts, both modes (the API's list)", { direction: "payout" }, (row) => row.direction === "payout"],
    ["payments in live mode (one branch)", { direction: "payment", mode: "live" }, (row) => row.direction === "payment" && !row.testMode],
    ["a status across all branches", { status: "expired" }, (row) => row.status === "expired"],
  ])("%s: pages newest first, ties broken by id, no repeat or gap", async (_, filter, keep) => {
    const expected = all.filter(keep).map((row) => row.id);
    expect(expected.length).toBeGreaterThan(0);
    for (const pageSize of [1, 4, 100]) {
      const { ids, pages } = await everyPage({ pageSize, ...filter });
      expect(ids).toEqual(expected);
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / pageSize)));
    }
  });

  it("the API list of one direction gives both modes and the same rows as a plain ordered select", async () => {
    const parsed = readApiListQuery(new URLSearchParams({ "page[size]": "100" }), "payment");
    if (!parsed.ok) throw new Error("bad query");
    const page = await listInvoices(t.db, m.merchantId, parsed.value);
    const plain = await t.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(sql`${invoices.merchantId} = ${m.merchantId} and ${invoices.direction} = 'payment'`)
      .orderBy(sql`${invoices.createdAt} desc, ${invoices.id} desc`);
    expect(page.invoices.map((row) => row.id)).toEqual(plain.map((row) => row.id));
    expect(new Set(page.invoices.map((row) => row.testMode))).toEqual(new Set([true, false]));
  });

  it("the dashboard's list keeps to its view and carries the routed connection", async () => {
    const { filter } = readDashboardListQuery({ type: "payout" }, { viewMode: "test" });
    const page = await listDashboardInvoices(t.db, m.merchantId, filter);
    const expected = all.filter((row) => row.direction === "payout" && row.testMode).slice(0, filter.pageSize);
    expect(page.invoices.map((row) => row.id)).toEqual(expected.map((row) => row.id));
    expect(page.invoices.every((row) => row.connection !== null)).toBe(true);
  });

  it("a reference prefix finds exactly the references starting with it, whatever their characters", async () => {
    const references = ["pfx", "pfx-a", "pfx-b%", "pfx-b_c", "pfx-bz", "pfx-c", "pfx-é", "pfx-\u{10ffff}x", "pfy", "pfw-a", "PFX-a", "pf"];
    const mine = await invoiceMerchant(t.db);
    await connect(t.db, mine.merchantId, "provider-b", "h2h");
    for (const reference of references) {
      invoiceOf(await createInvoice(t.db, mine.merchant, "payment", bodyFor(EUR, mine.account, { reference_id: reference })));
    }
    for (const prefix of ["pfx", "pfx-", "pfx-b", "pfx-b%", "pfx-b_", "pfx-\u{10ffff}", "pf", "p", "x"]) {
      const { filter } = readDashboardListQuery({ reference: prefix }, { viewMode: "test" });
      const page = await listDashboardInvoices(t.db, mine.merchantId, filter);
      expect(page.invoices.map((row) => row.referenceId).sort(), prefix).toEqual(references.filter((r) => r.startsWith(prefix)).sort());
    }
  });

  it("prefixEnd raises the last code point, skipping surrogates", () => {
    expect(prefixEnd("abc")).toBe("abd");
    expect(prefixEnd("a\u{1f600}")).toBe("a\u{1f601}");
    expect(prefixEnd("a\ud7ff")).toBe("a\ue000");
    expect(prefixEnd("a\u{10ffff}")).toBeUndefined();
    expect(prefixEnd("")).toBeUndefined();
  });

  it("lists nothing of another merchant's", async () => {
    const stranger = await invoiceMerchant(t.db);
    expect((await listInvoices(t.db, stranger.merchantId, { pageSize: 100 })).invoices).toEqual([]);
  });
});

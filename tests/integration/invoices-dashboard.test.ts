import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  customerFieldSources,
  DASHBOARD_PAGE_SIZE,
  getDashboardInvoice,
  listDashboardInvoices,
  parseDashboardQuery,
  type DashboardInvoiceFilters,
} from "@/lib/invoices/read/dashboard";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { changeInvoiceStatus } from "@/lib/invoices/status";
import type { InvoiceRow } from "@/lib/invoices/create/store";
import { PAYMENT_EXAMPLES, payoutExample } from "@/lib/invoices/test-fixtures";
import { logger } from "@/lib/logger";
import { getKind } from "@/lib/providers";
import { createTestDb, type TestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, remove, type InvoiceMerchant } from "./helpers/invoice-fixtures";

let t: TestDb;
const secret = randomBytes(32);
const FULL_CARD = "4111111111111111";

beforeAll(async () => {
  vi.spyOn(logger, "info").mockImplementation(() => undefined);
  t = await createTestDb();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t.close();
});

/** The list's order, (created_at, id) descending: two invoices may share a millisecond. */
const newestFirst = (...rows: InvoiceRow[]) =>
  [...rows].sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (x.id < y.id ? 1 : -1)).map((row) => row.id);

async function create(m: InvoiceMerchant, direction: "payment" | "payout", example: unknown, overrides: Record<string, unknown> = {}): Promise<InvoiceRow> {
  const body = bodyFor(example, m.account, { reference_id: newReference(), ...overrides });
  const result = await createInvoice(t.db, m.merchant, direction, body, { requestId: "req-dash", secretKey: () => secret });
  if (result.kind !== "created") throw new Error(`setup: ${JSON.stringify(result)}`);
  return result.invoice;
}

const B_WITHOUT_CUSTOMER = PAYMENT_EXAMPLES["B: EUR without customer"];
const B_WITH_CUSTOMER = PAYMENT_EXAMPLES["B: EUR with customer"];
const A_UAH = PAYMENT_EXAMPLES["A: payment_card_uah_hpp, UAH, allow_partially only"];
const C_AMD = PAYMENT_EXAMPLES["C: AMD"];
const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe("listDashboardInvoices", () => {
  let m: InvoiceMerchant;
  let b: InvoiceRow, a: InvoiceRow, payout: InvoiceRow, live: InvoiceRow, special: InvoiceRow;

  beforeAll(async () => {
    m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h");
    await connect(t.db, m.merchantId, "provider-a", "provider_account");
    await connect(t.db, m.merchantId, "provider-c", "provider_account", { mode: "live" });
    b = await create(m, "payment", B_WITHOUT_CUSTOMER, { reference_id: "order-100" });
    a = await create(m, "payment", A_UAH, { reference_id: "order-1000" });
    payout = await create(m, "payout", payoutExample(), { reference_id: "payout-1" });
    live = await create(m, "payment", C_AMD, { reference_id: "live-1", test_mode: false });
    special = await create(m, "payment", B_WITHOUT_CUSTOMER, { reference_id: "100%_off\\x" });
    await changeInvoiceStatus(t.db, a, "processing", undefined, { reason: "test" });
    const stranger = await invoiceMerchant(t.db);
    await connect(t.db, stranger.merchantId, "provider-b", "h2h");
    await create(stranger, "payment", B_WITHOUT_CUSTOMER, { reference_id: "order-100" });
  });

  const ids = async (filters: DashboardInvoiceFilters) => (await listDashboardInvoices(t.db, m.merchantId, filters)).invoices.map((i) => i.id);

  it("lists both directions newest first, only the merchant's own, with the routed connection", async () => {
    const page = await listDashboardInvoices(t.db, m.merchantId, {});
    expect(page.invoices.map((i) => i.id)).toEqual(newestFirst(special, live, payout, a, b));
    expect(page.nextCursor).toBeNull();
    const row = page.invoices.find((i) => i.id === payout.id);
    expect(row).toMatchObject({ direction: "payout", referenceId: "payout-1", status: "created", amount: "250.75", currency: "UAH", testMode: true });
    expect(row?.connection).toMatchObject({ provider: "provider-a", providerName: "Provider A", kind: "provider_account", mode: "test", deleted: false });
    expect(typeof row?.createdAt).toBe("string");
    expect(JSON.stringify(page)).not.toMatch(/secret|credential/i);
  });

  it("filters by type, status, provider and mode", async () => {
    expect(await ids({ type: "payout" })).toEqual(newestFirst(payout));
    expect(await ids({ type: "payment" })).toEqual(newestFirst(special, live, a, b));
    expect(await ids({ status: "processing" })).toEqual(newestFirst(a));
    expect(await ids({ status: "created", type: "payment" })).toEqual(newestFirst(special, live, b));
    expect(await ids({ provider: "provider-b" })).toEqual(newestFirst(special, b));
    expect(await ids({ provider: "provider-a" })).toEqual(newestFirst(payout, a));
    expect(await ids({ provider: "provider-f" })).toEqual([]);
    expect(await ids({ mode: "live" })).toEqual(newestFirst(live));
    expect(await ids({ mode: "test", provider: "provider-c" })).toEqual([]);
  });

  it("matches the reference exactly or by its beginning, with LIKE wildcards taken literally", async () => {
    expect(await ids({ reference: "order-1000" })).toEqual(newestFirst(a));
    expect(await ids({ reference: "order-100" })).toEqual(newestFirst(a, b));
    expect(await ids({ reference: "order" })).toEqual(newestFirst(a, b));
    expect(await ids({ reference: "%" })).toEqual([]);
    expect(await ids({ reference: "_" })).toEqual([]);
    expect(await ids({ reference: "100%_off\\" })).toEqual(newestFirst(special));
  });

  it("filters by created day in UTC, both ends included", async () => {
    expect(await ids({ from: today(), to: today() })).toHaveLength(5);
    expect(await ids({ from: dayOffset(1) })).toEqual([]);
    expect(await ids({ to: dayOffset(-1) })).toEqual([]);
  });

  it("keeps a deleted connection's label on its invoices", async () => {
    const own = await invoiceMerchant(t.db);
    const conn = await connect(t.db, own.merchantId, "provider-b", "h2h");
    const invoice = await create(own, "payment", B_WITHOUT_CUSTOMER);
    await remove(t.db, own.merchantId, conn.id);
    const [row] = (await listDashboardInvoices(t.db, own.merchantId, {})).invoices;
    expect(row?.id).toBe(invoice.id);
    expect(row?.connection).toMatchObject({ id: conn.id, label: conn.label, deleted: true });
  });
});

describe("listDashboardInvoices pagination", () => {
  it("pages 25 at a time without repeats or gaps, also when invoices arrive between pages", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-a", "provider_account");
    const created: InvoiceRow[] = [];
    for (let n = 0; n < DASHBOARD_PAGE_SIZE + 3; n += 1) {
      created.push(await create(m, n % 2 ? "payout" : "payment", n % 2 ? payoutExample() : A_UAH));
    }
    const first = await listDashboardInvoices(t.db, m.merchantId, {});
    expect(first.invoices).toHaveLength(DASHBOARD_PAGE_SIZE);
    expect(first.nextCursor).not.toBeNull();
    const newer = await create(m, "payment", A_UAH);
    const second = await listDashboardInvoices(t.db, m.merchantId, {}, first.nextCursor!);
    expect(second.nextCursor).toBeNull();
    const seen = [...first.invoices, ...second.invoices].map((i) => i.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(newestFirst(...created));
    expect(seen).not.toContain(newer.id);
    const filtered = await listDashboardInvoices(t.db, m.merchantId, { type: "payout" });
    expect(filtered.invoices.map((i) => i.id)).toEqual(newestFirst(...created.filter((row) => row.direction === "payout")));
  });
});

describe("parseDashboardQuery", () => {
  it("keeps valid filters, treats blanks and type=all as no filter, and names what it ignored", () => {
    expect(parseDashboardQuery(new URLSearchParams("type=all&status=&provider=provider-b&mode=live&reference=+ord+&from=2024-01-31&to=2024-02-29"))).toEqual({
      filters: { provider: "provider-b", mode: "live", reference: "ord", from: "2024-01-31", to: "2024-02-29" },
      after: undefined,
      invalid: [],
    });
    const bad = parseDashboardQuery({ type: "refund", status: "done", provider: "provider-z", mode: "both", from: "2024-02-30", to: "yesterday", after: "nope" });
    expect(bad.filters).toEqual({});
    expect(bad.invalid.sort()).toEqual(["after", "from", "mode", "provider", "status", "to", "type"]);
    expect(parseDashboardQuery({ type: ["payout", "payment"], reference: "x".repeat(256) })).toEqual({ filters: { type: "payout" }, after: undefined, invalid: ["reference"] });
  });
});

describe("getDashboardInvoice", () => {
  let m: InvoiceMerchant;
  beforeAll(async () => {
    m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { constants: { CITY: "Berlin" } });
    await connect(t.db, m.merchantId, "provider-a", "provider_account");
  });

  it("shows a Provider B invoice without customer with each resolved field's source", async () => {
    const invoice = await create(m, "payment", B_WITHOUT_CUSTOMER);
    const detail = await getDashboardInvoice(t.db, m.merchantId, invoice.id);
    expect(detail).toMatchObject({ id: invoice.id, direction: "payment", status: "created", final: false, hostedPagePath: `/pay/${invoice.id}` });
    expect(detail?.connection).toMatchObject({ provider: "provider-b", providerName: "Provider B", kindLabel: "H2H merchant account", mode: "test" });
    const source = (path: string) => detail?.customer.find((f) => f.path === path);
    expect(source("customer.address.city")).toEqual({ path: "customer.address.city", value: "Berlin", source: "constant", constant: "CITY" });
    expect(source("customer.address.country")).toEqual({ path: "customer.address.country", value: "GB", source: "default" });
    expect(source("language")).toEqual({ path: "language", value: "en", source: "default" });
    expect(detail?.request).toEqual({
      data: {
        type: "payment-invoice",
        attributes: { service: "payment_card_eur_hpp", currency: "EUR", amount: "100.50", reference_id: invoice.referenceId, test_mode: true, flow: "charge" },
      },
    });
    expect(detail?.history).toEqual([{ id: expect.any(Number), from: null, to: "created", resolution: null, reason: "created", at: invoice.createdAt.toISOString() }]);
  });

  it("credits values the request sent to the request", async () => {
    const invoice = await create(m, "payment", B_WITH_CUSTOMER);
    const detail = await getDashboardInvoice(t.db, m.merchantId, invoice.id);
    const sources = Object.fromEntries(detail!.customer.map((f) => [f.path, f.source]));
    expect(sources).toMatchObject({ "customer.address.city": "request", "customer.name": "request", "customer.reference_id": "request", language: "default" });
    expect((detail!.request.data as { attributes: { amount: unknown; customer: unknown } }).attributes).toMatchObject({ amount: 100.5, customer: { name: "Ada Lovelace" } });
  });

  it("shows a payout's card only masked and has no hosted page", async () => {
    const invoice = await create(m, "payout", payoutExample());
    const detail = await getDashboardInvoice(t.db, m.merchantId, invoice.id);
    expect(detail).toMatchObject({ direction: "payout", cardNumberMasked: "411111******1111", hostedPagePath: null, flow: null });
    expect((detail!.request.data as { attributes: unknown }).attributes).toMatchObject({ fields: { card_number: "411111******1111" } });
    expect(JSON.stringify(detail)).not.toContain(FULL_CARD);
    expect(detail?.customer.every((f) => f.source === "request")).toBe(true);
  });

  it("follows status changes and knows when the invoice is final", async () => {
    const invoice = await create(m, "payment", A_UAH);
    await changeInvoiceStatus(t.db, invoice, "terminated", undefined, { reason: "stopped by the merchant" });
    const detail = await getDashboardInvoice(t.db, m.merchantId, invoice.id);
    expect(detail).toMatchObject({ status: "terminated", final: true });
    expect(detail?.history.map((h) => [h.from, h.to, h.reason])).toEqual([
      [null, "created", "created"],
      ["created", "terminated", "stopped by the merchant"],
    ]);
  });

  it("finds nothing for another merchant's invoice or an id that is not one", async () => {
    const invoice = await create(m, "payment", A_UAH);
    const stranger = await invoiceMerchant(t.db);
    expect(await getDashboardInvoice(t.db, stranger.merchantId, invoice.id)).toBeUndefined();
    for (const id of ["conn_abc", "cpi_", "cpoi_x\u0000", invoice.id.replace("cpi_", "cpoi_")]) {
      expect(await getDashboardInvoice(t.db, m.merchantId, id)).toBeUndefined();
    }
  });
});

describe("customerFieldSources", () => {
  const kindB = getKind("provider-b", "h2h");

  it("credits a constant changed since the invoice to the constant, and one equal to the default to the default", () => {
    const fields = customerFieldSources(null, { name: "Shop Name", address: { city: "London" }, language: "de" }, kindB);
    expect(fields).toEqual([
      { path: "customer.address.city", value: "London", source: "default" },
      { path: "customer.name", value: "Shop Name", source: "constant", constant: "NAME" },
      { path: "language", value: "de", source: "constant", constant: "LANG" },
    ]);
  });

  it("treats blank sent values as not sent and says unknown where nothing could have supplied a value", () => {
    const fields = customerFieldSources({ name: " " }, { name: "Customer", extra: { deep: 1 } }, kindB);
    expect(fields).toEqual([
      { path: "customer.extra.deep", value: 1, source: "unknown" },
      { path: "customer.name", value: "Customer", source: "default" },
    ]);
    expect(customerFieldSources({ tags: ["a"] }, { tags: ["a"] }, undefined)).toEqual([{ path: "customer.tags", value: ["a"], source: "request" }]);
  });
});

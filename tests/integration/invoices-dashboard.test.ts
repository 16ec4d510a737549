import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { editConnection } from "@/lib/connections/service";
import { invoices } from "@/lib/db/schema";
import { toInvoiceResource } from "@/lib/api/invoice-resource";
import { getDashboardInvoice, listDashboardInvoices } from "@/lib/invoices/read/dashboard-invoices";
import { DASHBOARD_PAGE_SIZE, readDashboardListQuery, type DashboardInvoiceFilters } from "@/lib/invoices/read/filters";
import { getInvoice } from "@/lib/invoices/read/get-invoice";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { changeInvoiceStatus } from "@/lib/invoices/status";
import type { InvoiceRow } from "@/lib/invoices/store";
import { PAYMENT_EXAMPLES, payoutExample } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { setUpTestDb } from "./helpers/db";
import { scopeFor } from "./helpers/connection-fixtures";
import { bodyFor, connect, invoiceMerchant, newReference, remove, type InvoiceMerchant } from "./helpers/invoice-fixtures";

const t = setUpTestDb();
const secret = randomBytes(32);
const FULL_CARD = "4111111111111111";

beforeAll(() => {
  vi.spyOn(logger, "info").mockImplementation(() => undefined);
});
afterAll(() => {
  vi.restoreAllMocks();
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
/** The list page's answer to these query parameters, each of which the page must accept. */
async function listFor(merchantId: string, search: DashboardInvoiceFilters & { after?: string }) {
  const query = readDashboardListQuery(search);
  expect(query.invalid).toEqual([]);
  return listDashboardInvoices(t.db, merchantId, query.filter);
}

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

  const ids = async (filters: DashboardInvoiceFilters) => (await listFor(m.merchantId, filters)).invoices.map((i) => i.id);

  it("lists both directions newest first, only the merchant's own, with the routed connection", async () => {
    const page = await listFor(m.merchantId, {});
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
    const [row] = (await listFor(own.merchantId, {})).invoices;
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
    const first = await listFor(m.merchantId, {});
    expect(first.invoices).toHaveLength(DASHBOARD_PAGE_SIZE);
    expect(first.nextCursor).not.toBeNull();
    const newer = await create(m, "payment", A_UAH);
    const second = await listFor(m.merchantId, { after: first.nextCursor! });
    expect(second.nextCursor).toBeNull();
    const seen = [...first.invoices, ...second.invoices].map((i) => i.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(newestFirst(...created));
    expect(seen).not.toContain(newer.id);
    const filtered = await listFor(m.merchantId, { type: "payout" });
    expect(filtered.invoices.map((i) => i.id)).toEqual(newestFirst(...created.filter((row) => row.direction === "payout")));
  });
});

describe("readDashboardListQuery", () => {
  const urlPart = ({ filters, after, invalid }: ReturnType<typeof readDashboardListQuery>) => ({ filters, after, invalid });

  it("keeps valid filters, treats blanks and type=all as no filter, and names what it ignored", () => {
    const read = readDashboardListQuery(new URLSearchParams("type=all&status=&provider=provider-b&mode=live&reference=+ord+&from=2024-01-31&to=2024-02-29"));
    expect(urlPart(read)).toEqual({
      filters: { provider: "provider-b", mode: "live", reference: "ord", from: "2024-01-31", to: "2024-02-29" },
      after: undefined,
      invalid: [],
    });
    expect(read.filter).toEqual({
      provider: "provider-b",
      mode: "live",
      reference: { value: "ord", match: "prefix" },
      createdFrom: new Date("2024-01-31T00:00:00.000Z"),
      createdBefore: new Date("2024-03-01T00:00:00.000Z"),
      pageSize: DASHBOARD_PAGE_SIZE,
    });
    const bad = readDashboardListQuery({
      type: "refund",
      status: "done",
      provider: "provider-z",
      mode: "both",
      from: "2024-02-30",
      to: "yesterday",
      after: "nope",
    });
    expect(bad.filters).toEqual({});
    expect(bad.filter).toEqual({ pageSize: DASHBOARD_PAGE_SIZE });
    expect(bad.invalid.sort()).toEqual(["after", "from", "mode", "provider", "status", "to", "type"]);
    expect(urlPart(readDashboardListQuery({ type: ["payout", "payment"], reference: "x".repeat(256) }))).toEqual({
      filters: { type: "payout" },
      after: undefined,
      invalid: ["reference"],
    });
  });

  it("ignores days outside 1970-01-01 to 9999-12-31 instead of failing the page, and takes the range's last day", async () => {
    expect(readDashboardListQuery({ from: "1969-12-31", to: "9999-12-31" }).invalid).toEqual(["from"]);
    const m = await invoiceMerchant(t.db);
    expect((await listFor(m.merchantId, { from: "1970-01-01", to: "9999-12-31" })).invoices).toEqual([]);
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
    expect(detail?.history).toEqual([
      { id: expect.any(Number), from: null, to: "created", resolution: null, reason: "created", at: invoice.createdAt.toISOString() },
    ]);
  });

  it("credits values the request sent to the request", async () => {
    const invoice = await create(m, "payment", B_WITH_CUSTOMER);
    const detail = await getDashboardInvoice(t.db, m.merchantId, invoice.id);
    const sources = Object.fromEntries(detail!.customer.map((f) => [f.path, f.source]));
    expect(sources).toMatchObject({ "customer.address.city": "request", "customer.name": "request", "customer.reference_id": "request", language: "default" });
    expect((detail!.request.data as { attributes: { amount: unknown; customer: unknown } }).attributes).toMatchObject({
      amount: 100.5,
      customer: { name: "Ada Lovelace" },
    });
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

describe("recorded customer sources", () => {
  /** The page's rows and the API's map for one invoice, both read back from the database. */
  async function sourcesOf(m: InvoiceMerchant, invoice: InvoiceRow) {
    const detail = await getDashboardInvoice(t.db, m.merchantId, invoice.id);
    const row = await getInvoice(t.db, m.merchantId, invoice.direction, invoice.id);
    return { page: detail?.customer, api: toInvoiceResource(row!, { baseUrl: "http://test" }).attributes.resolved_customer_sources };
  }

  it("Provider A: request and constant, with the constant's name", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-a", "provider_account", { constants: { CITY: "Kyiv", NAME: "Shop" } });
    const invoice = await create(m, "payment", A_UAH, { customer: { name: "Taras", address: { street: "Khreshchatyk 1" } } });
    expect(await sourcesOf(m, invoice)).toEqual({
      page: [
        { path: "customer.address.city", value: "Kyiv", source: "constant", constant: "CITY" },
        { path: "customer.address.street", value: "Khreshchatyk 1", source: "request" },
        { path: "customer.name", value: "Taras", source: "request" },
      ],
      api: {
        "customer.address.city": { source: "constant", constant: "CITY" },
        "customer.address.street": { source: "request" },
        "customer.name": { source: "request" },
      },
    });
  });

  it("Provider B: request, constant and default, the language outside the customer, unchanged by later constant edits", async () => {
    const m = await invoiceMerchant(t.db);
    const vaultKey = randomBytes(32);
    const conn = await connect(t.db, m.merchantId, "provider-b", "h2h", { constants: { NAME: "Shop Name", LANG: "de" }, vaultKey });
    const invoice = await create(m, "payment", B_WITHOUT_CUSTOMER, { customer: { email: "ada@example.com", address: { city: "London" } } });
    // A constant changed afterwards, even to the value the default gave, does not rewrite history.
    const edited = await editConnection(scopeFor(t.db, m.merchantId, vaultKey), conn.id, { constants: { NAME: "Other", LANG: "de", COUNTRY: "GB" } });
    expect(edited?.ok).toBe(true);
    const { page, api } = await sourcesOf(m, invoice);
    expect(page).toEqual([
      { path: "customer.address.city", value: "London", source: "request" },
      { path: "customer.address.country", value: "GB", source: "default" },
      { path: "customer.address.full_address", value: "1 Canada Square, London E14 5AB", source: "default" },
      { path: "customer.address.post_code", value: "E14 5AB", source: "default" },
      { path: "customer.address.region", value: "Northeast", source: "default" },
      { path: "customer.email", value: "ada@example.com", source: "request" },
      { path: "customer.name", value: "Shop Name", source: "constant", constant: "NAME" },
      { path: "customer.phone", value: "+442079460000", source: "default" },
      { path: "language", value: "de", source: "constant", constant: "LANG" },
    ]);
    expect(api).toEqual(Object.fromEntries(page!.map(({ path, source, constant }) => [path, constant ? { source, constant } : { source }])));
  });

  it("Provider F: a customer inside gateway_options, constants filling its gaps", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-f", "h2h", { constants: { DATE_OF_BIRTH: "1990-04-21", COUNTRY_PHONE_CODE: "+44" } });
    const invoice = await create(m, "payment", PAYMENT_EXAMPLES["F: EUR with customer inside gateway_options"]);
    expect(await sourcesOf(m, invoice)).toEqual({
      page: [
        { path: "customer.constants.customer_country_phone_code", value: "+44", source: "constant", constant: "COUNTRY_PHONE_CODE" },
        { path: "customer.date_of_birth", value: "1990-04-21", source: "constant", constant: "DATE_OF_BIRTH" },
        { path: "customer.name", value: "Ada Lovelace", source: "request" },
      ],
      api: {
        "customer.constants.customer_country_phone_code": { source: "constant", constant: "COUNTRY_PHONE_CODE" },
        "customer.date_of_birth": { source: "constant", constant: "DATE_OF_BIRTH" },
        "customer.name": { source: "request" },
      },
    });
  });

  it("shows an invoice from before sources were recorded with its values and no source", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h");
    const invoice = await create(m, "payment", B_WITHOUT_CUSTOMER);
    await t.db.update(invoices).set({ resolvedCustomerSources: null }).where(eq(invoices.id, invoice.id));
    const { page, api } = await sourcesOf(m, invoice);
    expect(api).toBeNull();
    expect(page).toHaveLength(9);
    expect(page).toContainEqual({ path: "customer.address.city", value: "London", source: null });
    expect(page?.every((field) => field.source === null && field.constant === undefined)).toBe(true);
  });
});

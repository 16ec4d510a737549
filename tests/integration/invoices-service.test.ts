import { createHash, randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { invoices } from "@/lib/db/schema";
import { IllegalTransitionError, isLuhnValid, type InvoiceStatus } from "@/lib/invoices/contract";
import { readApiListQuery } from "@/lib/invoices/read/filters";
import { listInvoices } from "@/lib/invoices/read/list-invoices";
import { canonicalJson } from "@/lib/canonical-json";
import { findRoute, noRouteDetail } from "@/lib/invoices/create/routing";
import { createInvoice, type CreateInvoiceResult } from "@/lib/invoices/create/create-invoice";
import { changeInvoiceStatus, getStatusHistory, StaleInvoiceStatusError } from "@/lib/invoices/status";
import type { InvoiceRow } from "@/lib/invoices/store";
import { PAYMENT_EXAMPLES, payoutExample, payoutSpecExample } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { toJsonPointer } from "@/lib/problems";
import { getRoutingOrders, saveRoutingOrder } from "@/lib/routing/orders";
import { setUpTestDb } from "./helpers/db";
import {
  bodyFor,
  connect,
  countInvoices,
  disable,
  invoiceMerchant,
  newReference,
  remove,
  storedInvoiceJson,
  type InvoiceMerchant,
} from "./helpers/invoice-fixtures";

const t = setUpTestDb();
const secret = randomBytes(32);
const EUR = PAYMENT_EXAMPLES["B: EUR with customer"];
const TEST_EUR = { service: "payment_card_eur_hpp", mode: "test" } as const;

let logLines: unknown[] = [];
beforeEach(() => {
  logLines = [];
  for (const level of ["info", "warn", "error"] as const) {
    vi.spyOn(logger, level).mockImplementation((...args: unknown[]) => void logLines.push(args));
  }
});
afterEach(() => vi.restoreAllMocks());

function create(m: InvoiceMerchant, direction: "payment" | "payout", body: unknown, requestId = "req-svc") {
  return createInvoice(t.db, m.merchant, direction, body, { requestId, secretKey: () => secret });
}

function invoiceOf(result: CreateInvoiceResult): InvoiceRow {
  if (result.kind !== "created" && result.kind !== "replayed") throw new Error(`expected an invoice, got ${JSON.stringify(result)}`);
  return result.invoice;
}

const scopeOf = (m: InvoiceMerchant) => ({ merchantId: m.merchantId, actor: { label: "Olga Owner <olga@example.com>" } });

const payment = (m: InvoiceMerchant, overrides: Record<string, unknown> = {}) => bodyFor(EUR, m.account, { reference_id: newReference(), ...overrides });

describe("routing (issue: Routing)", () => {
  it("finds nothing without a connection and names the service and mode", async () => {
    const m = await invoiceMerchant(t.db);
    expect(await findRoute(t.db, m.merchantId, TEST_EUR)).toBeUndefined();
    expect(await create(m, "payment", payment(m))).toEqual({ kind: "unroutable", service: "payment_card_eur_hpp", mode: "test" });
    expect(noRouteDetail(TEST_EUR)).toBe("No enabled test-mode connection offers payment_card_eur_hpp; connect one on the Providers page");
  });

  it("takes a test-mode connection for test_mode true and a live one otherwise", async () => {
    const m = await invoiceMerchant(t.db);
    const live = await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "live" });
    expect((await create(m, "payment", payment(m))).kind).toBe("unroutable");
    for (const testMode of [false, undefined]) {
      const invoice = invoiceOf(await create(m, "payment", payment(m, { test_mode: testMode })));
      expect([invoice.connectionId, invoice.testMode]).toEqual([live.id, false]);
    }
    const test = await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "test" });
    expect(invoiceOf(await create(m, "payment", payment(m))).connectionId).toBe(test.id);
  });

  it("ignores disabled and deleted connections and those that do not offer the service", async () => {
    const m = await invoiceMerchant(t.db);
    const disabled = await connect(t.db, m.merchantId, "provider-b", "h2h");
    await disable(t.db, m.merchantId, disabled.id);
    const deleted = await connect(t.db, m.merchantId, "provider-f", "h2h");
    await remove(t.db, m.merchantId, deleted.id);
    await connect(t.db, m.merchantId, "provider-c", "h2h"); // an AMD account: no EUR service
    expect(await findRoute(t.db, m.merchantId, TEST_EUR)).toBeUndefined();
    const eur = await connect(t.db, m.merchantId, "provider-c", "provider_account");
    expect((await findRoute(t.db, m.merchantId, TEST_EUR))?.connectionId).toBe(eur.id);
  });

  it("among several takes the first of the routing order for the service and mode, else the oldest", async () => {
    const m = await invoiceMerchant(t.db);
    const oldest = await connect(t.db, m.merchantId, "provider-b", "h2h");
    const middle = await connect(t.db, m.merchantId, "provider-f", "h2h");
    const newest = await connect(t.db, m.merchantId, "provider-e", "h2h");
    const routed = async () => invoiceOf(await create(m, "payment", payment(m))).connectionId;
    const order = (...ids: string[]) => saveRoutingOrder(t.db, scopeOf(m), { ...TEST_EUR, connectionIds: ids });
    expect(await routed()).toBe(oldest.id);

    expect((await order(newest.id)).ok).toBe(true);
    expect(await routed()).toBe(newest.id);
    expect(await findRoute(t.db, m.merchantId, TEST_EUR)).toMatchObject({ connectionId: newest.id, position: 1, reason: "routing_order" });

    await disable(t.db, m.merchantId, newest.id);
    expect(await routed()).toBe(oldest.id);

    expect((await order(middle.id, newest.id)).ok).toBe(true);
    expect(await routed()).toBe(middle.id);
    await remove(t.db, m.merchantId, middle.id);
    expect(await routed()).toBe(oldest.id);

    // Saving the oldest-first order back routes as if nothing had ever been saved.
    expect((await order(oldest.id, newest.id)).ok).toBe(true);
    expect(await routed()).toBe(oldest.id);
  });

  it("an order of one service or mode does not steer another", async () => {
    const m = await invoiceMerchant(t.db);
    const oldest = await connect(t.db, m.merchantId, "provider-a", "h2h");
    const other = await connect(t.db, m.merchantId, "provider-a", "provider_account");
    await saveRoutingOrder(t.db, scopeOf(m), { service: "payment_card_uah", mode: "test", connectionIds: [other.id] });
    expect((await findRoute(t.db, m.merchantId, { service: "payment_card_uah_hpp", mode: "test" }))?.connectionId).toBe(oldest.id);
    expect((await findRoute(t.db, m.merchantId, { service: "payment_card_uah", mode: "test" }))?.connectionId).toBe(other.id);
  });
});

describe("saveRoutingOrder", () => {
  it("refuses what routing could never use, naming each problem", async () => {
    const m = await invoiceMerchant(t.db);
    const stranger = await invoiceMerchant(t.db);
    const foreign = await connect(t.db, stranger.merchantId, "provider-b", "h2h");
    const live = await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "live" });
    const amd = await connect(t.db, m.merchantId, "provider-c", "h2h");
    const codes = async (input: Parameters<typeof saveRoutingOrder>[2]) => {
      const result = await saveRoutingOrder(t.db, scopeOf(m), input);
      return result.ok ? [] : result.problems.map((e) => e.code);
    };
    expect(await codes({ ...TEST_EUR, connectionIds: [foreign.id] })).toEqual(["not_found"]);
    expect(await codes({ ...TEST_EUR, connectionIds: [live.id] })).toEqual(["mode_mismatch"]);
    expect(await codes({ ...TEST_EUR, connectionIds: [amd.id] })).toEqual(["service_not_offered"]);
    expect(await codes({ service: "payment_card_usd_hpp", mode: "test", connectionIds: [amd.id] })).toEqual(["unknown_service"]);
    const orders = await getRoutingOrders(t.db, m.merchantId);
    expect(orders.every((order) => order.updatedAt === null)).toBe(true);
  });

  it("keeps one order per service and mode; a new one replaces it", async () => {
    const m = await invoiceMerchant(t.db);
    const first = await connect(t.db, m.merchantId, "provider-b", "h2h");
    const second = await connect(t.db, m.merchantId, "provider-f", "h2h");
    const live = await connect(t.db, m.merchantId, "provider-f", "h2h", { mode: "live" });
    const liveB = await connect(t.db, m.merchantId, "provider-b", "h2h", { mode: "live" });
    await saveRoutingOrder(t.db, scopeOf(m), { ...TEST_EUR, connectionIds: [second.id, first.id] });
    await saveRoutingOrder(t.db, scopeOf(m), { ...TEST_EUR, connectionIds: [first.id, second.id] });
    await saveRoutingOrder(t.db, scopeOf(m), { service: TEST_EUR.service, mode: "live", connectionIds: [liveB.id, live.id] });
    const ids = (mode: string) =>
      getRoutingOrders(t.db, m.merchantId).then((orders) =>
        orders.find((o) => o.service === TEST_EUR.service && o.mode === mode)?.connections.map((c) => c.connectionId),
      );
    expect(await ids("test")).toEqual([first.id, second.id]);
    expect(await ids("live")).toEqual([liveB.id, live.id]);
  });
});

describe("createInvoice", () => {
  let m: InvoiceMerchant;
  beforeAll(async () => {
    m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h");
    await connect(t.db, m.merchantId, "provider-a", "h2h");
  });

  it("answers forbidden for another commerce account before looking at anything else", async () => {
    const body = payment(m, { commerce_account: "someone-else", amount: -1, currency: "UAH" });
    expect(await create(m, "payment", body)).toEqual({ kind: "forbidden", commerceAccount: "someone-else" });
  });

  it("reports every invalid field at once", async () => {
    const result = await create(m, "payment", payment(m, { amount: "1.234", currency: "UAH", flow: "refund" }));
    expect(result.kind).toBe("invalid");
    const pointers = result.kind === "invalid" ? result.problems.map((p) => toJsonPointer(p.path)).sort() : [];
    expect(pointers).toEqual(["/data/attributes/amount", "/data/attributes/currency", "/data/attributes/flow"]);
  });

  it.each([
    [100, "100", 10000n, true],
    ["100", "100", 10000n, false],
    [0.01, "0.01", 1n, true],
    ["0.01", "0.01", 1n, false],
    [100.5, "100.5", 10050n, true],
    ["100.50", "100.50", 10050n, false],
    [0.1, "0.1", 10n, true],
    ["999999999999.99", "999999999999.99", 99999999999999n, false],
  ] as const)("keeps amount %j exactly: text %s, %s minor units", async (amount, text, minor, isNumber) => {
    const invoice = invoiceOf(await create(m, "payment", payment(m, { amount })));
    expect([invoice.amount, invoice.amountMinor, invoice.amountIsNumber]).toEqual([text, minor, isNumber]);
    const [stored] = await t.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect([stored?.amount, stored?.amountMinor]).toEqual([text, minor]);
  });

  it("sums amounts exactly in minor units (0.1 + 0.2 is 0.30)", async () => {
    const own = await invoiceMerchant(t.db);
    await connect(t.db, own.merchantId, "provider-b", "h2h");
    for (const amount of [0.1, 0.2, "999999999999.99"]) await create(own, "payment", payment(own, { amount }));
    const [row] = await t.db
      .select({ total: sql<string>`sum(${invoices.amountMinor})::text` })
      .from(invoices)
      .where(eq(invoices.merchantId, own.merchantId));
    expect(row?.total).toBe("100000000000029");
  });

  it("replays the same body, whatever its key order, and refuses a different one", async () => {
    const body = payment(m);
    const first = await create(m, "payment", body);
    expect(first.kind).toBe("created");
    const again = await create(m, "payment", JSON.parse(canonicalJson(body)));
    expect(again).toEqual({ kind: "replayed", invoice: invoiceOf(first) });
    const different = await create(m, "payment", { ...body, data: { ...body.data, attributes: { ...body.data.attributes, amount: 101 } } });
    expect(different).toMatchObject({ kind: "conflict", existing: { id: invoiceOf(first).id } });
  });

  it("scopes reference_id to the merchant and the invoice type", async () => {
    const reference = newReference();
    const paid = invoiceOf(await create(m, "payment", payment(m, { reference_id: reference })));
    const paidOut = await create(m, "payout", bodyFor(payoutSpecExample(), m.account, { reference_id: reference }));
    expect(paidOut.kind).toBe("created");
    const other = await invoiceMerchant(t.db);
    await connect(t.db, other.merchantId, "provider-b", "h2h");
    const theirs = invoiceOf(await create(other, "payment", payment(other, { reference_id: reference })));
    expect(theirs.id).not.toBe(paid.id);
  });

  it("creates exactly one invoice from 50 concurrent identical requests", async () => {
    const body = payment(m);
    const results = await Promise.all(Array.from({ length: 50 }, () => create(m, "payment", structuredClone(body))));
    const kinds = results.map((r) => r.kind).sort();
    expect(kinds.filter((k) => k === "created")).toHaveLength(1);
    expect(kinds.filter((k) => k === "replayed")).toHaveLength(49);
    expect(new Set(results.map((r) => invoiceOf(r).id)).size).toBe(1);
    expect(await countInvoices(t.db, m.merchantId, body.data.attributes.reference_id as string)).toBe(1);
    expect(await getStatusHistory(t.db, invoiceOf(results[0]!).id)).toHaveLength(1);
  });
});

/** A Luhn-valid number other than 4111111111111111 with the same first six and last four digits. */
function sameMaskOtherCard(): string {
  for (let middle = 0; middle < 1_000_000; middle += 1) {
    const candidate = `411111${String(middle).padStart(6, "0")}1111`;
    if (candidate !== "4111111111111111" && isLuhnValid(candidate)) return candidate;
  }
  throw new Error("no candidate");
}

describe("payout card numbers (issue: never stored in full)", () => {
  let m: InvoiceMerchant;
  beforeAll(async () => {
    m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-a", "h2h");
  });

  it("keeps a full number only in memory, for the provider call", async () => {
    const body = bodyFor(payoutExample(), m.account, { reference_id: newReference() });
    const result = await create(m, "payout", body);
    const invoice = invoiceOf(result);
    expect(result.kind === "created" && result.cardNumberForProvider).toBe("4111111111111111");
    expect(Object.keys(result)).not.toContain("cardNumberForProvider");
    expect(JSON.stringify(result, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain("4111111111111111");
    expect(invoice.cardNumberMasked).toBe("411111******1111");
    const stored = await storedInvoiceJson(t.db, invoice.id);
    expect(stored).not.toMatch(/4111111111111111|111111111111/);
    expect(stored).toContain("411111******1111");
    // The request hash must not be a plain hash of a body holding the number (10^5 guesses away).
    expect(invoice.requestHash).not.toBe(createHash("sha256").update(canonicalJson(body.data)).digest("hex"));
    expect(JSON.stringify(logLines)).not.toContain("4111111111111111");
  });

  it("replays the same card typed differently and refuses another card behind the same mask", async () => {
    const reference = newReference();
    const withCard = (card_number: string) => bodyFor(payoutExample(), m.account, { reference_id: reference, fields: { card_number } });
    const first = invoiceOf(await create(m, "payout", withCard("4111111111111111")));
    const replay = await create(m, "payout", withCard("4111 1111 1111 1111"));
    expect(replay.kind).toBe("replayed");
    expect(replay.kind === "replayed" && replay.cardNumberForProvider).toBe("4111111111111111");
    expect(await create(m, "payout", withCard(sameMaskOtherCard()))).toMatchObject({ kind: "conflict", existing: { id: first.id } });
  });

  it("takes the masked number of spec 4.2 and stores it as its mask", async () => {
    const result = await create(m, "payout", bodyFor(payoutSpecExample(), m.account, { reference_id: newReference() }));
    expect(invoiceOf(result).cardNumberMasked).toBe("411111******1111");
    expect(result.kind === "created" && result.cardNumberForProvider).toBe("411111******1111");
  });
});

describe("customer (spec 2.1, 2.3, 2.5, 2.6)", () => {
  const customer = { name: "Olena", address: { country: "UA" } };
  const placements = (account: string, reference: () => string) => {
    const base = bodyFor(PAYMENT_EXAMPLES["A: payment_card_uah_hpp, UAH, allow_partially only"], account);
    const at = (attrs: Record<string, unknown>, data: Record<string, unknown> = {}) => ({
      data: { ...base.data, ...data, attributes: { ...base.data.attributes, reference_id: reference(), ...attrs } },
    });
    return {
      attributes: at({ customer }),
      data: at({}, { customer }),
      gateway_options: at({ gateway_options: { customer } }),
    };
  };

  it("gives the same resolved customer from all three placements, filled from the constants", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-a", "provider_account", { constants: { CITY: "Kyiv", STREET: "1 Khreshchatyk", NAME: "Unused" } });
    const created = [];
    for (const body of Object.values(placements(m.account, newReference))) created.push(invoiceOf(await create(m, "payment", body)));
    const expected = { name: "Olena", address: { country: "UA", city: "Kyiv", street: "1 Khreshchatyk" } };
    for (const invoice of created) {
      expect(invoice.customer).toEqual(customer);
      expect(invoice.resolvedCustomer).toEqual(expected);
    }
  });

  it("gives Provider B its built-in defaults when nothing is sent", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { constants: { CITY: "Paris" } });
    const invoice = invoiceOf(await create(m, "payment", bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account)));
    expect(invoice.customer).toBeNull();
    expect(invoice.resolvedCustomer).toMatchObject({ language: "en", address: { country: "GB", city: "Paris", region: "Northeast" } });
  });
});

describe("changeInvoiceStatus (REFERENCE Statuses)", () => {
  let m: InvoiceMerchant;
  beforeAll(async () => {
    m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h");
  });
  const fresh = async () => invoiceOf(await create(m, "payment", payment(m), "req-create"));

  it("records creation as null → created", async () => {
    const invoice = await fresh();
    expect(await getStatusHistory(t.db, invoice.id)).toEqual([
      expect.objectContaining({ fromStatus: null, toStatus: "created", resolution: null, reason: "created", requestId: "req-create", at: invoice.createdAt }),
    ]);
  });

  it("moves along legal transitions and records each one", async () => {
    const created = await fresh();
    const processing = await changeInvoiceStatus(t.db, created, "processing", undefined, { reason: "sent to provider" });
    const processed = await changeInvoiceStatus(t.db, processing, "processed", "ok", { reason: "callback", requestId: "req-cb" });
    expect([processed.status, processed.resolution]).toEqual(["processed", "ok"]);
    expect(processed.updatedAt.getTime()).toBeGreaterThanOrEqual(created.createdAt.getTime());
    const history = await getStatusHistory(t.db, created.id);
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.resolution, h.reason])).toEqual([
      [null, "created", null, "created"],
      ["created", "processing", null, "sent to provider"],
      ["processing", "processed", "ok", "callback"],
    ]);
  });

  it.each([
    ["created", "processed", "ok"],
    ["created", "canceling", undefined],
    ["created", "processing", "ok"],
  ] as const)("refuses %s → %s (%s) and writes nothing", async (_from, to, resolution) => {
    const invoice = await fresh();
    await expect(changeInvoiceStatus(t.db, invoice, to as InvoiceStatus, resolution)).rejects.toBeInstanceOf(IllegalTransitionError);
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(row?.status).toBe("created");
    expect(await getStatusHistory(t.db, invoice.id)).toHaveLength(1);
  });

  it("lets only one of two writers move the same status", async () => {
    const invoice = await fresh();
    const outcomes = await Promise.allSettled([changeInvoiceStatus(t.db, invoice, "processing"), changeInvoiceStatus(t.db, invoice, "terminated")]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const failure = outcomes.find((o) => o.status === "rejected");
    expect(failure?.status === "rejected" && failure.reason).toBeInstanceOf(StaleInvoiceStatusError);
    expect(await getStatusHistory(t.db, invoice.id)).toHaveLength(2);
  });
});

describe("listInvoices", () => {
  let m: InvoiceMerchant;
  let all: InvoiceRow[];
  beforeAll(async () => {
    m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h");
    await connect(t.db, m.merchantId, "provider-a", "h2h");
    // Concurrent creation: several invoices share a millisecond, so the id must break ties.
    const results = await Promise.all(Array.from({ length: 23 }, () => create(m, "payment", payment(m))));
    await create(m, "payout", bodyFor(payoutSpecExample(), m.account, { reference_id: newReference() }));
    all = results.map(invoiceOf).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  });

  const query = (params: Record<string, string>, direction: "payment" | "payout" = "payment") => {
    const parsed = readApiListQuery(new URLSearchParams(params), direction);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    return parsed.value;
  };

  it("pages newest first without duplicates or gaps", async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const page = await listInvoices(t.db, m.merchantId, query({ "page[size]": "5", ...(after ? { "page[after]": after } : {}) }));
      seen.push(...page.invoices.map((i) => i.id));
      after = page.nextCursor;
      pages += 1;
    } while (after);
    expect(pages).toBe(5);
    expect(seen).toEqual(all.map((i) => i.id));
  });

  it("filters by reference, status and creation time", async () => {
    const target = all[7]!;
    const byReference = await listInvoices(t.db, m.merchantId, query({ "filter[reference_id]": target.referenceId }));
    expect(byReference.invoices.map((i) => i.id)).toEqual([target.id]);

    await changeInvoiceStatus(t.db, target, "terminated");
    const terminated = await listInvoices(t.db, m.merchantId, query({ "filter[status]": "terminated" }));
    expect(terminated.invoices.map((i) => i.id)).toEqual([target.id]);

    const from = all.at(-1)!.createdAt.toISOString();
    const to = new Date(all[0]!.createdAt.getTime() + 1).toISOString();
    const window = await listInvoices(t.db, m.merchantId, query({ "filter[created_from]": from, "filter[created_to]": to, "page[size]": "100" }));
    expect(window.invoices).toHaveLength(23);
    const none = await listInvoices(t.db, m.merchantId, query({ "filter[created_to]": from }));
    expect(none.invoices).toEqual([]);
  });

  it("keeps directions and merchants apart", async () => {
    const payouts = await listInvoices(t.db, m.merchantId, query({}, "payout"));
    expect(payouts.invoices.map((i) => i.direction)).toEqual(["payout"]);
    const stranger = await invoiceMerchant(t.db);
    expect((await listInvoices(t.db, stranger.merchantId, query({}))).invoices).toEqual([]);
  });

  it.each([
    [{ "filter[referense_id]": "x" }, "filter[referense_id]", "unknown_parameter"],
    [{ "page[size]": "0" }, "page[size]", "invalid_parameter"],
    [{ "page[size]": "101" }, "page[size]", "invalid_parameter"],
    [{ "page[size]": "ten" }, "page[size]", "invalid_parameter"],
    [{ "filter[status]": "paid" }, "filter[status]", "invalid_parameter"],
    [{ "filter[created_from]": "yesterday" }, "filter[created_from]", "invalid_parameter"],
    [{ "page[after]": "not-a-cursor" }, "page[after]", "invalid_cursor"],
  ])("refuses %j", (params, parameter, code) => {
    const parsed = readApiListQuery(new URLSearchParams(params), "payment");
    expect(parsed.ok ? [] : parsed.problems.map((p) => [p.path[0], p.code])).toEqual([[parameter, code]]);
  });
});

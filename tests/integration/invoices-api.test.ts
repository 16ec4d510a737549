import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as GET_OPENAPI } from "@/app/api/commerce/openapi.json/route";
import { GET as GET_PAYMENT, POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PAYMENT_ONE } from "@/app/api/commerce/payment-invoices/[id]/route";
import { GET as GET_PAYOUT, POST as POST_PAYOUT } from "@/app/api/commerce/payout-invoices/route";
import { GET as GET_PAYOUT_ONE } from "@/app/api/commerce/payout-invoices/[id]/route";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/queries";
import { RATE_LIMIT_BURST, resetRateLimits, takeToken } from "@/lib/api/rate-limit";
import type { RouteHandler } from "@/lib/api/run-logged";
import { PROBLEM_TITLES } from "@/lib/api/errors";
import { invoiceResourceSchema, type InvoiceProblemCode } from "@/lib/invoices/contract";
import { canonicalJson } from "@/lib/canonical-json";
import { PAYMENT_EXAMPLES, payoutExample, payoutSpecExample } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import type { ConnectionKind, Mode } from "@/lib/providers";
import { assertValidApiResponse } from "../helpers/api-validator";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, countInvoices, disable, invoiceMerchant, newReference, storedInvoiceJson, type InvoiceMerchant } from "./helpers/invoice-fixtures";

const t = setUpTestDb();

// Invoices that process at creation (auto_process, bypass_hpp) meet a closed port, never a server
// that happens to run on this machine.
const previousAppUrl = process.env.APP_URL;
beforeAll(() => {
  process.env.APP_URL = "http://127.0.0.1:2";
});
afterAll(() => {
  if (previousAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = previousAppUrl;
});

let logLines: unknown[] = [];
let loggedErrors: unknown[] = [];
beforeEach(() => {
  resetRateLimits();
  logLines = [];
  loggedErrors = [];
  vi.spyOn(logger, "info").mockImplementation((...args: unknown[]) => void logLines.push(args));
  vi.spyOn(logger, "warn").mockImplementation((...args: unknown[]) => void logLines.push(args));
  vi.spyOn(logger, "error").mockImplementation((...args: unknown[]) => {
    logLines.push(args);
    loggedErrors.push(args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  // An unhandled error is a 500 the client cannot act on; no input may cause one.
  expect(loggedErrors).toEqual([]);
});

type ErrorObject = { status: string; code: string; title: string; detail: string; source?: { pointer?: string; parameter?: string } };
type Resource = {
  id: string;
  type: string;
  attributes: Record<string, unknown> & { status: string; reference_id: string; fields?: { card_number: string } };
  relationships: { connection: { data: { type: string; id: string } | null } };
  links: { self: string };
};
type Doc = { data: Resource & Resource[]; errors: ErrorObject[]; meta: Record<string, unknown>; links: { self: string; next: string | null } };
type Answer = { status: number; headers: Headers; text: string; json: Doc };
type Call = { method?: string; path: string; key?: string | null; body?: unknown; rawBody?: string; contentType?: string; headers?: Record<string, string> };

/** Every answer must carry a request id and must never be a 500. */
async function send<P>(handler: RouteHandler<P>, params: P, call: Call): Promise<Answer> {
  const headers = new Headers(call.headers);
  if (call.key) headers.set("authorization", `Bearer ${call.key}`);
  const hasBody = call.body !== undefined || call.rawBody !== undefined;
  if (hasBody) headers.set("content-type", call.contentType ?? "application/json");
  const init: RequestInit = { method: call.method ?? "GET", headers };
  if (hasBody) init.body = call.rawBody ?? JSON.stringify(call.body);
  const response = await handler(new Request(`http://test${call.path}`, init), { params: Promise.resolve(params) });
  const text = await response.text();
  expect(response.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(response.status).toBeLessThan(500);
  // Every answer is held to the OpenAPI document and the official JSON:API schema.
  assertValidApiResponse({ method: init.method!, url: call.path, status: response.status, headers: response.headers, body: text });
  return { status: response.status, headers: response.headers, text, json: (text ? JSON.parse(text) : undefined) as Doc };
}

const PAYMENTS = "/api/commerce/payment-invoices";
const PAYOUTS = "/api/commerce/payout-invoices";

const postPayment = (key: string | null, body: unknown, extra: Partial<Call> = {}) =>
  send(POST_PAYMENT, {}, { method: "POST", path: PAYMENTS, key, body, ...extra });
const postPayout = (key: string | null, body: unknown, extra: Partial<Call> = {}) =>
  send(POST_PAYOUT, {}, { method: "POST", path: PAYOUTS, key, body, ...extra });
const getPayment = (key: string | null, id: string) => send(GET_PAYMENT_ONE, { id }, { path: `${PAYMENTS}/${id}`, key });
const getPayout = (key: string | null, id: string) => send(GET_PAYOUT_ONE, { id }, { path: `${PAYOUTS}/${id}`, key });
const listPayments = (key: string | null, query = "") => send(GET_PAYMENT, {}, { path: `${PAYMENTS}${query}`, key });

const EUR = PAYMENT_EXAMPLES["B: EUR with customer"];

function errorAt(answer: Answer, pointer: string): ErrorObject | undefined {
  return answer.json.errors.find((e) => e.source?.pointer === pointer);
}

/** A merchant with one connection in `mode` and an API key of the same mode. */
async function merchantWith(provider: string, kind: ConnectionKind, mode: Mode = "test"): Promise<InvoiceMerchant & { connectionId: string }> {
  const m = await invoiceMerchant(t.db, { mode });
  const connection = await connect(t.db, m.merchantId, provider, kind, { mode });
  return { ...m, connectionId: connection.id };
}

/** The provider whose test-mode connection takes each spec 4.1 example (spec section 1 table). */
const EXAMPLE_ROUTES: Readonly<Record<string, readonly [string, ConnectionKind, Mode]>> = {
  "A: payment_card_uah_hpp, UAH, allow_partially only": ["provider-a", "provider_account", "test"],
  "B: EUR with customer": ["provider-b", "h2h", "test"],
  "B: EUR without customer": ["provider-b", "h2h", "test"],
  "C: AMD": ["provider-c", "h2h", "test"],
  "C: EUR with tokenize and service_fields": ["provider-c", "provider_account", "test"],
  "D: UZS with tokenize and service_fields": ["provider-d", "h2h", "test"],
  "E: EUR with date_of_birth, customer reference_id as integer": ["provider-e", "h2h", "test"],
  "F: EUR with bypass_hpp and customer under data": ["provider-f", "h2h", "test"],
  "F: EUR with customer inside gateway_options": ["provider-f", "h2h", "test"],
  "minimum payment (no test_mode)": ["provider-b", "h2h", "live"],
};

type SentBody = { data: { attributes: Record<string, unknown> & { gateway_options?: { customer?: unknown } }; customer?: unknown } };

function sentCustomer(body: SentBody): unknown {
  const { attributes } = body.data;
  return attributes.customer ?? body.data.customer ?? attributes.gateway_options?.customer ?? null;
}

describe("spec 4.1: each provider's example invoice", () => {
  it("maps every example to a provider", () => {
    expect(Object.keys(EXAMPLE_ROUTES).sort()).toEqual(Object.keys(PAYMENT_EXAMPLES).sort());
  });

  it.each(Object.entries(EXAMPLE_ROUTES))("%s → 201, routed to %j", async (name, [provider, kind, mode]) => {
    const m = await merchantWith(provider, kind, mode);
    const body = bodyFor(PAYMENT_EXAMPLES[name], m.account) as SentBody;
    const answer = await postPayment(m.key, body);
    expect(answer.status).toBe(201);
    const data = answer.json.data;
    expect(invoiceResourceSchema.safeParse(data).error).toBeUndefined();
    expect(data.id).toMatch(/^cpi_[A-Za-z0-9_-]{22}$/);
    expect(data.type).toBe("payment-invoice");
    const sent = body.data.attributes;
    // Bypass_hpp sends the payment at creation; no sandbox answers here (APP_URL points
    // nowhere), so it fails softly before the 201. Every other example waits for its hosted page.
    const bypass = (sent.options as { bypass_hpp?: boolean } | undefined)?.bypass_hpp === true;
    expect(data.attributes).toMatchObject({
      ...(bypass ? { status: "process_failed", resolution: "provider_unavailable", attempts: 1 } : { status: "created", resolution: null, attempts: 0 }),
      amount: sent.amount,
      currency: sent.currency,
      service: sent.service,
      reference_id: sent.reference_id,
      test_mode: sent.test_mode ?? false,
      flow: "charge",
      options: sent.options ?? {},
      customer: sentCustomer(body),
      hpp_url: `${process.env.APP_URL}/pay/${data.id}`,
    });
    expect(data.attributes.resolved_customer).toEqual(expect.any(Object));
    if (bypass) expect(String(data.attributes.updated) > String(data.attributes.created)).toBe(true);
    else expect(data.attributes.created).toBe(data.attributes.updated);
    expect(data.relationships.connection.data).toEqual({ type: "connection", id: m.connectionId });
    // On APP_URL, never on the Host the request named (http://test here).
    expect(data.links.self).toBe(`${process.env.APP_URL}${PAYMENTS}/${data.id}`);
    expect(answer.headers.get("location")).toBe(data.links.self);
    expect(answer.headers.get("content-type")).toBe("application/vnd.api+json");

    const read = await getPayment(m.key, data.id);
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual(data);
  });
});

describe("spec 4.2: payout invoices", () => {
  let m: InvoiceMerchant & { connectionId: string };
  beforeAll(async () => {
    m = await merchantWith("provider-a", "h2h");
  });

  it("creates the spec's example with its masked card number", async () => {
    const body = bodyFor(payoutSpecExample(), m.account);
    const answer = await postPayout(m.key, body);
    expect(answer.status).toBe(201);
    const data = answer.json.data;
    expect(invoiceResourceSchema.safeParse(data).error).toBeUndefined();
    expect(data.id).toMatch(/^cpoi_/);
    expect(data.type).toBe("payout-invoice");
    // auto_process: the payout goes to the provider before the 201; no sandbox answers here.
    expect(data.attributes).toMatchObject({
      status: "process_failed",
      resolution: "provider_unavailable",
      attempts: 1,
      amount: 250.75,
      currency: "UAH",
      service: "payment_card_uah",
      flow: null,
      hpp_url: null,
      fields: { card_number: "411111******1111" },
      options: { attempts_limit: 5, split_mode: false, allow_partially: false, auto_process: true },
    });
    expect(data.relationships.connection.data?.id).toBe(m.connectionId);
    expect((await getPayout(m.key, data.id)).json.data).toEqual(data);
  });

  it("stores a full card number only as its mask: not in the row, the response or the logs", async () => {
    const full = "4111111111111111";
    const answer = await postPayout(m.key, bodyFor(payoutExample(), m.account, { reference_id: newReference(), fields: { card_number: full } }));
    expect(answer.status).toBe(201);
    expect(answer.json.data.attributes.fields).toEqual({ card_number: "411111******1111" });
    const stored = await storedInvoiceJson(t.db, answer.json.data.id);
    expect(stored).toContain("411111******1111");
    for (const haystack of [stored, answer.text, JSON.stringify(logLines), (await getPayout(m.key, answer.json.data.id)).text]) {
      expect(haystack).not.toContain(full);
      expect(haystack).not.toContain("111111111111");
    }
  });
});

describe("customer placements (spec 2.1)", () => {
  it("resolves the same customer from data.attributes, data and gateway_options", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-f", "h2h", { constants: { CITY: "Lyon", COUNTRY_PHONE_CODE: "+33", EMAIL: "f@example.com" } });
    const customer = { name: "Ada", address: { country: "FR", first_name: "Ada" }, date_of_birth: "1990-04-21" };
    const base = bodyFor(PAYMENT_EXAMPLES["F: EUR with customer inside gateway_options"], m.account);
    const attributes = { ...base.data.attributes, gateway_options: { cardgate: { tokenize: "" } } };
    const bodies = [
      { data: { type: "payment-invoice", attributes: { ...attributes, reference_id: newReference(), customer } } },
      { data: { type: "payment-invoice", attributes: { ...attributes, reference_id: newReference() }, customer } },
      {
        data: {
          type: "payment-invoice",
          attributes: { ...attributes, reference_id: newReference(), gateway_options: { cardgate: { tokenize: "" }, customer } },
        },
      },
    ];
    const resolved = [];
    for (const body of bodies) {
      const answer = await postPayment(m.key, body);
      expect(answer.status).toBe(201);
      expect(answer.json.data.attributes.customer).toEqual(customer);
      resolved.push(answer.json.data.attributes.resolved_customer);
    }
    expect(resolved[0]).toEqual({
      ...customer,
      address: { country: "FR", first_name: "Ada", city: "Lyon", email: "f@example.com" },
      constants: { customer_country_phone_code: "+33" },
    });
    expect(resolved[1]).toEqual(resolved[0]);
    expect(resolved[2]).toEqual(resolved[0]);
  });
});

describe("idempotency (reference_id per commerce account and invoice type)", () => {
  let m: InvoiceMerchant;
  beforeAll(async () => {
    m = await merchantWith("provider-b", "h2h");
  });

  it("returns the original with 200 for the same body, also reordered and re-spaced, and 409 for another", async () => {
    const body = bodyFor(EUR, m.account, { reference_id: newReference() });
    const first = await postPayment(m.key, body);
    expect(first.status).toBe(201);
    const again = await postPayment(m.key, body);
    expect([again.status, again.json.data]).toEqual([200, first.json.data]);
    const reordered = await postPayment(m.key, undefined, { rawBody: JSON.stringify(JSON.parse(canonicalJson(body)), null, 4) });
    expect([reordered.status, reordered.json.data.id]).toEqual([200, first.json.data.id]);

    const changed = await postPayment(m.key, bodyFor(body, m.account, { amount: "100.51" }));
    expect(changed.status).toBe(409);
    expect(changed.json.errors).toEqual([
      expect.objectContaining({ status: "409", code: "reference_reused", source: { pointer: "/data/attributes/reference_id" } }),
    ]);
    expect(changed.json.errors[0]!.detail).toContain(first.json.data.id);
  });

  it("still replays after the connection that took the invoice is gone", async () => {
    const own = await invoiceMerchant(t.db);
    const connection = await connect(t.db, own.merchantId, "provider-b", "h2h");
    const body = bodyFor(EUR, own.account, { reference_id: newReference() });
    const first = await postPayment(own.key, body);
    await disable(t.db, own.merchantId, connection.id);
    const again = await postPayment(own.key, body);
    expect([again.status, again.json.data.id]).toEqual([200, first.json.data.id]);
    expect((await postPayment(own.key, bodyFor(body, own.account, { reference_id: newReference() }))).status).toBe(422);
  });

  it("answers 50 concurrent identical creates with one 201 and 49 × 200 for one invoice", async () => {
    const body = bodyFor(EUR, m.account, { reference_id: newReference() });
    const answers = await Promise.all(Array.from({ length: 50 }, () => postPayment(m.key, body)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(49);
    expect(new Set(answers.map((a) => a.json.data.id)).size).toBe(1);
    expect(await countInvoices(t.db, m.merchantId, body.data.attributes.reference_id as string)).toBe(1);
  });
});

type BadCase = [name: string, body: (account: string) => unknown, pointer: string, code: InvoiceProblemCode];

const payment = (overrides: Record<string, unknown>) => (account: string) => bodyFor(EUR, account, overrides);
const payout = (overrides: Record<string, unknown>) => (account: string) => bodyFor(payoutSpecExample(), account, overrides);
const A = "/data/attributes";

const BAD_PAYMENTS: BadCase[] = [
  ["unknown service", payment({ service: "payment_card_usd_hpp" }), `${A}/service`, "unknown_service"],
  ["payout service", payment({ service: "payment_card_uah", currency: "UAH" }), `${A}/service`, "service_type_mismatch"],
  ["currency of another service", payment({ currency: "UAH" }), `${A}/currency`, "currency_mismatch"],
  ["lower-case currency", payment({ currency: "eur" }), `${A}/currency`, "invalid_format"],
  ["missing currency", payment({ currency: undefined }), `${A}/currency`, "required"],
  ["zero amount", payment({ amount: 0 }), `${A}/amount`, "invalid_amount"],
  ["negative amount", payment({ amount: "-5.00" }), `${A}/amount`, "invalid_amount"],
  ["three decimals", payment({ amount: "10.001" }), `${A}/amount`, "invalid_amount"],
  ["exponent", payment({ amount: "1e3" }), `${A}/amount`, "invalid_amount"],
  ["comma separator", payment({ amount: "1,50" }), `${A}/amount`, "invalid_amount"],
  ["thirteen integer digits", payment({ amount: "1000000000000" }), `${A}/amount`, "invalid_amount"],
  ["amount as boolean", payment({ amount: true }), `${A}/amount`, "invalid_type"],
  ["missing amount", payment({ amount: undefined }), `${A}/amount`, "required"],
  ["missing reference_id", payment({ reference_id: undefined }), `${A}/reference_id`, "required"],
  ["empty reference_id", payment({ reference_id: "" }), `${A}/reference_id`, "too_short"],
  ["reference_id of 256 characters", payment({ reference_id: "r".repeat(256) }), `${A}/reference_id`, "too_long"],
  ["numeric reference_id", payment({ reference_id: 42 }), `${A}/reference_id`, "invalid_type"],
  ["missing service", payment({ service: undefined }), `${A}/service`, "required"],
  ["missing commerce_account", payment({ commerce_account: undefined }), `${A}/commerce_account`, "required"],
  ["missing flow", payment({ flow: undefined }), `${A}/flow`, "required"],
  ["unknown flow", payment({ flow: "capture" }), `${A}/flow`, "invalid_value"],
  ["test_mode as text", payment({ test_mode: "yes" }), `${A}/test_mode`, "invalid_type"],
  ["typo test_mod", payment({ test_mod: true }), `${A}/test_mod`, "unknown_attribute"],
  ["payout option", payment({ options: { auto_process: true } }), `${A}/options/auto_process`, "unknown_attribute"],
  ["service_fields not an array", payment({ service_fields: {} }), `${A}/service_fields`, "invalid_type"],
  ["tokenize not a string", payment({ gateway_options: { cardgate: { tokenize: 1 } } }), `${A}/gateway_options/cardgate/tokenize`, "invalid_type"],
  ["bad customer e-mail", payment({ customer: { email: "nope" } }), `${A}/customer/email`, "invalid_format"],
  ["bad customer country", payment({ customer: { address: { country: "XX" } } }), `${A}/customer/address/country`, "invalid_format"],
  ["customer twice", (account) => ({ data: { ...bodyFor(EUR, account).data, customer: { name: "Again" } } }), "/data/customer", "customer_conflict"],
  ["payout type", (account) => ({ data: { ...bodyFor(EUR, account).data, type: "payout-invoice" } }), "/data/type", "invalid_value"],
  ["no data", () => ({ meta: {} }), "/data", "required"],
  ["attributes not an object", () => ({ data: { type: "payment-invoice", attributes: [] } }), `${A}`, "invalid_type"],
  ["NUL in reference_id", payment({ reference_id: "ref\u0000x" }), `${A}/reference_id`, "invalid_character"],
  ["NUL in a customer extra", payment({ customer: { name: "Ada", note: "a\u0000b" } }), `${A}/customer/note`, "invalid_character"],
  ["NUL in a member name", payment({ customer: { "a\u0000": 1 } }), `${A}/customer/a\u0000`, "invalid_character"],
];

const BAD_PAYOUTS: BadCase[] = [
  ["Luhn failure", payout({ fields: { card_number: "4111111111111112" } }), `${A}/fields/card_number`, "invalid_card_number"],
  ["mask showing five leading digits", payout({ fields: { card_number: "41111*******1111" } }), `${A}/fields/card_number`, "invalid_card_number"],
  ["mask of 20 characters", payout({ fields: { card_number: `411111${"*".repeat(10)}1111` } }), `${A}/fields/card_number`, "invalid_card_number"],
  ["eleven digits", payout({ fields: { card_number: "41111111111" } }), `${A}/fields/card_number`, "invalid_card_number"],
  ["missing fields", payout({ fields: undefined }), `${A}/fields`, "required"],
  ["unknown field", payout({ fields: { card_number: "411111******1111", cvv: "123" } }), `${A}/fields/cvv`, "unknown_attribute"],
  ["payment service", payout({ service: "payment_card_uah_hpp" }), `${A}/service`, "service_type_mismatch"],
  ["attempts_limit 0", payout({ options: { attempts_limit: 0 } }), `${A}/options/attempts_limit`, "out_of_range"],
  ["attempts_limit 1.5", payout({ options: { attempts_limit: 1.5 } }), `${A}/options/attempts_limit`, "invalid_type"],
  ["flow on a payout", payout({ flow: "charge" }), `${A}/flow`, "unknown_attribute"],
  ["currency mismatch", payout({ currency: "EUR" }), `${A}/currency`, "currency_mismatch"],
];

describe("422: every rule, table-driven", () => {
  let m: InvoiceMerchant;
  beforeAll(async () => {
    m = await merchantWith("provider-a", "h2h");
    await connect(t.db, m.merchantId, "provider-b", "h2h");
  });

  const check = async (answer: Answer, pointer: string, code: InvoiceProblemCode) => {
    expect(answer.status, answer.text).toBe(422);
    const error = errorAt(answer, pointer);
    expect(error, answer.text).toMatchObject({ status: "422", code, title: PROBLEM_TITLES[code] });
    expect(error?.detail.length).toBeGreaterThan(0);
    expect(answer.json.meta.request_id).toBe(answer.headers.get("x-request-id"));
  };

  it.each(BAD_PAYMENTS)("payment: %s", async (_name, body, pointer, code) => {
    await check(await postPayment(m.key, body(m.account)), pointer, code);
  });

  it.each(BAD_PAYOUTS)("payout: %s", async (_name, body, pointer, code) => {
    await check(await postPayout(m.key, body(m.account)), pointer, code);
  });

  it("reports all problems of a body at once", async () => {
    const answer = await postPayment(m.key, payment({ currency: "UAH", amount: "1.234", reference_id: "", flow: "x", extra: 1 })(m.account));
    expect(answer.status).toBe(422);
    expect(answer.json.errors.map((e) => e.source?.pointer).sort(), "one error per field").toEqual(
      [`${A}/amount`, `${A}/currency`, `${A}/extra`, `${A}/flow`, `${A}/reference_id`].sort(),
    );
  });

  it("refuses JSON nested 30 000 levels deep (it would overflow the stack when stored)", async () => {
    const deep = "[".repeat(30_000) + "]".repeat(30_000);
    const rawBody = JSON.stringify(bodyFor(EUR, m.account, { service_fields: "DEEP" })).replace('"DEEP"', deep);
    const answer = await postPayment(m.key, undefined, { rawBody });
    await check(answer, `${A}/service_fields/${Array.from({ length: 29 }, () => "0").join("/")}`, "too_deep");
  });

  it("never echoes a rejected card number", async () => {
    const answer = await postPayout(m.key, payout({ fields: { card_number: "4111111111111112" } })(m.account));
    expect(answer.text).not.toContain("4111111111111112");
    expect(JSON.stringify(logLines)).not.toContain("4111111111111112");
  });
});

describe("routing through the API", () => {
  it("answers 422 no_connection naming the service and mode, for none, disabled-only and other-mode connections", async () => {
    const m = await merchantWith("provider-b", "h2h", "live");
    const { key: testKey } = await createApiKey(t.db, { merchantId: m.merchantId, name: "test", mode: "test" });
    const answer = await postPayment(testKey, bodyFor(EUR, m.account));
    expect(answer.status).toBe(422);
    expect(answer.json.errors).toEqual([
      {
        status: "422",
        code: "no_connection",
        title: "No connection for service",
        detail: "No enabled test-mode connection offers payment_card_eur_hpp; connect one on the Providers page",
        source: { pointer: "/data/attributes/service" },
      },
    ]);
    const payoutAnswer = await postPayout(m.key, bodyFor(payoutSpecExample(), m.account, { test_mode: false }));
    expect(payoutAnswer.json.errors[0]!.detail).toBe("No enabled live-mode connection offers payment_card_uah; connect one on the Providers page");
  });
});

describe("status codes", () => {
  let m: InvoiceMerchant & { connectionId: string };
  let other: InvoiceMerchant & { connectionId: string };
  beforeAll(async () => {
    m = await merchantWith("provider-b", "h2h");
    other = await merchantWith("provider-b", "h2h");
  });

  it("400 for malformed JSON, with the position and without echoing the body", async () => {
    const answer = await postPayment(m.key, undefined, { rawBody: '{"data": {"type": "payment-invoice",}' });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0]).toMatchObject({ status: "400", code: "malformed_json" });
  });

  it("401 without a key, with an unknown key and with a revoked key", async () => {
    const body = bodyFor(EUR, m.account);
    const none = await postPayment(null, body);
    expect([none.status, none.json.errors[0]!.code, none.headers.get("www-authenticate")]).toEqual([401, "unauthorized", "Bearer"]);
    expect((await postPayment(`pok_${randomBytes(32).toString("base64url")}`, body)).json.errors[0]!.code).toBe("invalid_api_key");
    const revoked = await invoiceMerchant(t.db);
    await revokeApiKey(t.db, revoked.merchantId, revoked.keyId);
    expect((await listPayments(revoked.key)).status).toBe(401);
    expect((await getPayment(null, "cpi_x")).status).toBe(401);
  });

  it.each([["another merchant's account"], ["an unknown account"]])("403 for %s in commerce_account", async (which) => {
    const account = which === "an unknown account" ? "no-such-account" : other.account;
    const answer = await postPayment(m.key, bodyFor(EUR, account));
    expect(answer.status).toBe(403);
    expect(answer.json.errors).toEqual([
      expect.objectContaining({ status: "403", code: "forbidden_commerce_account", source: { pointer: "/data/attributes/commerce_account" } }),
    ]);
    expect(await countInvoices(t.db, other.merchantId, bodyFor(EUR, account).data.attributes.reference_id as string)).toBe(0);
  });

  it("404 for an unknown id, another merchant's invoice and an id of the other type", async () => {
    const theirs = await postPayment(other.key, bodyFor(EUR, other.account));
    expect(theirs.status).toBe(201);
    for (const answer of [
      await getPayment(m.key, "cpi_doesnotexist"),
      await getPayment(m.key, theirs.json.data.id),
      await getPayout(other.key, theirs.json.data.id),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.json.errors[0]).toMatchObject({ status: "404", code: "not_found" });
      expect(answer.text).not.toContain(other.account);
    }
  });

  it("413 for a body over 64 KiB", async () => {
    const answer = await postPayment(m.key, bodyFor(EUR, m.account, { service_fields: ["x".repeat(70_000)] }));
    expect([answer.status, answer.json.errors[0]!.code]).toEqual([413, "payload_too_large"]);
  });

  it("415 for a body that is not JSON", async () => {
    const answer = await postPayment(m.key, undefined, { rawBody: "service=x", contentType: "application/x-www-form-urlencoded" });
    expect([answer.status, answer.json.errors[0]!.code]).toEqual([415, "unsupported_media_type"]);
    const jsonApi = await postPayment(m.key, bodyFor(EUR, m.account, { reference_id: newReference() }), { contentType: "application/vnd.api+json" });
    expect(jsonApi.status).toBe(201);
  });

  it("429 with Retry-After once the key's burst is spent", async () => {
    // Spent as of five seconds from now: the bucket refills 100 tokens a second, so a busy machine
    // taking a few milliseconds before the request must not find one refilled.
    const later = Date.now() + 5_000;
    let spent = 0;
    while (takeToken(`key:${m.keyId}`, later).ok) spent += 1;
    expect(spent).toBe(RATE_LIMIT_BURST);
    const answer = await postPayment(m.key, bodyFor(EUR, m.account));
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(answer.json.errors[0]!.code).toBe("rate_limited");
  });

  it("never answers 500 to __proto__ members: refuses them at their pointers", async () => {
    const rawBody = JSON.stringify(bodyFor(EUR, m.account, { reference_id: newReference(), customer: "PROTO" })).replace(
      '"PROTO"',
      '{"__proto__": {"name": "x"}, "name": "Ada", "address": {"__proto__": null}}',
    );
    const answer = await postPayment(m.key, undefined, { rawBody });
    expect(answer.status).toBe(422);
    expect(answer.json.errors.map((e) => [e.source?.pointer, e.code])).toEqual([
      ["/data/attributes/customer/__proto__", "unknown_attribute"],
      ["/data/attributes/customer/address/__proto__", "unknown_attribute"],
    ]);
  });

  it.each([["[]"], ['"text"'], ["null"], ["42"], ['{"data": null}'], ['{"data": {"attributes": {"amount": {"$gt": 1}}}}']])(
    "never answers 500, even to %s",
    async (rawBody) => {
      expect((await postPayment(m.key, undefined, { rawBody })).status).toBe(422);
      expect((await postPayout(m.key, undefined, { rawBody })).status).toBe(422);
    },
  );
});

describe("X-Request-Id", () => {
  it("keeps the client's id in the answer, the error body, the log and the stored invoice", async () => {
    const m = await merchantWith("provider-b", "h2h");
    const bad = await postPayment(m.key, bodyFor(EUR, m.account, { amount: 0 }), { headers: { "x-request-id": "client-req-7" } });
    expect([bad.headers.get("x-request-id"), bad.json.meta.request_id]).toEqual(["client-req-7", "client-req-7"]);
    const good = await postPayment(m.key, bodyFor(EUR, m.account), { headers: { "x-request-id": "client-req-8" } });
    expect(good.headers.get("x-request-id")).toBe("client-req-8");
    expect(await storedInvoiceJson(t.db, good.json.data.id)).toContain('"requestId":"client-req-8"');
    expect(JSON.stringify(logLines)).toContain("client-req-8");
  });

  it("makes one up when the client sends none", async () => {
    const answer = await listPayments(null);
    expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
    expect(answer.json.meta.request_id).toBe(answer.headers.get("x-request-id"));
  });
});

describe("GET lists", () => {
  let m: InvoiceMerchant;
  let ids: string[];
  beforeAll(async () => {
    m = await merchantWith("provider-b", "h2h");
    await connect(t.db, m.merchantId, "provider-a", "h2h");
    ids = [];
    for (let i = 0; i < 7; i++) ids.unshift((await postPayment(m.key, bodyFor(EUR, m.account, { reference_id: `list-${i}` }))).json.data.id);
    await postPayout(m.key, bodyFor(payoutSpecExample(), m.account, { reference_id: "list-0" }));
  });

  it("follows links.next through every page, newest first, without duplicates or gaps", async () => {
    const seen: string[] = [];
    let path: string | null = `${PAYMENTS}?page[size]=3`;
    while (path) {
      const answer: Answer = await listPayments(m.key, path.slice(PAYMENTS.length));
      expect(answer.status).toBe(200);
      expect(answer.json.meta).toEqual({ page_size: 3 });
      seen.push(...answer.json.data.map((r) => r.id));
      path = answer.json.links.next ? new URL(answer.json.links.next).pathname + new URL(answer.json.links.next).search : null;
    }
    expect(seen).toEqual(ids);
  });

  it("filters by reference_id and status, and lists each type on its own endpoint", async () => {
    const byReference = await listPayments(m.key, "?filter[reference_id]=list-3");
    expect(byReference.json.data.map((r) => r.attributes.reference_id)).toEqual(["list-3"]);
    expect((await listPayments(m.key, "?filter[status]=processed")).json.data).toEqual([]);
    expect((await listPayments(m.key, "?filter[status]=created&page[size]=100")).json.data).toHaveLength(7);
    const payouts = await send(GET_PAYOUT, {}, { path: PAYOUTS, key: m.key });
    expect(payouts.json.data.map((r) => r.type)).toEqual(["payout-invoice"]);
    expect((await listPayments((await invoiceMerchant(t.db)).key)).json.data).toEqual([]);
  });

  it.each([
    ["?filter[reference_id]=a%00b", "filter[reference_id]"],
    ["?filter[created_from]=0000-01-01T00:00:00Z", "filter[created_from]"],
    [`?page[after]=${Buffer.from(JSON.stringify(["0000-01-01T00:00:00.000Z", "cpi_x"])).toString("base64url")}`, "page[after]"],
  ])("answers 400 for %s", async (query, parameter) => {
    const answer = await listPayments(m.key, query);
    expect([answer.status, answer.json.errors.map((e) => e.source?.parameter)]).toEqual([400, [parameter]]);
  });

  it("answers 404 for ids that cannot exist", async () => {
    for (const id of ["cpi_a%00b", "cpi_\u0000", "cpi_", `cpi_${"x".repeat(300)}`, "../x"]) {
      expect((await getPayment(m.key, id)).status).toBe(404);
    }
  });

  it("answers 400 naming the query parameter at fault", async () => {
    const answer = await listPayments(m.key, "?page[size]=1000&filter[nope]=1&page[after]=zzz");
    expect(answer.status).toBe(400);
    expect(answer.json.errors.map((e) => [e.status, e.source?.parameter]).sort()).toEqual([
      ["400", "filter[nope]"],
      ["400", "page[after]"],
      ["400", "page[size]"],
    ]);
  });
});

describe("resolved_customer_sources", () => {
  it("says where each resolved customer value came from, the same on create, read and list", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { constants: { NAME: "Shop Name" } });
    const body = bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference(), customer: { email: "ada@example.com" } });
    const created = await postPayment(m.key, body);
    expect(created.status).toBe(201);
    const attributes = created.json.data.attributes;
    expect(attributes.resolved_customer_sources).toEqual({
      "customer.address.city": { source: "default" },
      "customer.address.country": { source: "default" },
      "customer.address.full_address": { source: "default" },
      "customer.address.post_code": { source: "default" },
      "customer.address.region": { source: "default" },
      "customer.email": { source: "request" },
      "customer.name": { source: "constant", constant: "NAME" },
      "customer.phone": { source: "default" },
      language: { source: "default" },
    });
    expect(attributes.resolved_customer).toMatchObject({ email: "ada@example.com", name: "Shop Name", language: "en" });
    expect((await getPayment(m.key, created.json.data.id)).json.data).toEqual(created.json.data);
    expect((await listPayments(m.key)).json.data).toEqual([created.json.data]);
  });
});

describe("GET /api/commerce/openapi.json", () => {
  it("serves the OpenAPI 3.1 document without a key, describing both card number forms", async () => {
    const answer = await send(GET_OPENAPI, {}, { path: "/api/commerce/openapi.json" });
    expect(answer.status).toBe(200);
    const doc = JSON.parse(answer.text) as Record<string, unknown> & { components: { schemas: Record<string, unknown> } };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: process.env.APP_URL }]);
    const cardNumber = JSON.stringify(doc.components.schemas.PayoutInvoiceRequest);
    expect(cardNumber).toContain("or a masked number (digits and *, first six and last four digits visible");
    expect(Object.keys(doc.paths as object)).toEqual(expect.arrayContaining([PAYMENTS, `${PAYMENTS}/{id}`, PAYOUTS, `${PAYOUTS}/{id}`]));
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as GET_OPENAPI } from "@/app/api/commerce/openapi.json/route";
import { GET as LIST_PAYMENTS, POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { GET as GET_PAYMENT_ATTEMPTS } from "@/app/api/commerce/payment-invoices/[id]/attempts/route";
import { POST as POST_PAYOUT } from "@/app/api/commerce/payout-invoices/route";
import * as connectionsRoute from "@/app/api/connections/route";
import * as connectionRoute from "@/app/api/connections/[id]/route";
import * as providersRoute from "@/app/api/providers/route";
import * as routingRoute from "@/app/api/routing/route";
import * as routingOrderRoute from "@/app/api/routing/[id]/route";
import * as routingCompareRoute from "@/app/api/routing/[id]/compare/route";
import * as routingRollbackRoute from "@/app/api/routing/[id]/rollback/route";
import * as routingVersionRoute from "@/app/api/routing/[id]/versions/[version]/route";
import * as routingVersionsRoute from "@/app/api/routing/[id]/versions/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import type { RouteHandler } from "@/lib/api/run-logged";
import { logger } from "@/lib/logger";
import { PAYMENT_EXAMPLES, paymentWith, payoutExample } from "@/tests/fixtures/invoices";
import { apiResponseProblems, assertValidApiResponse, requestBodyProblems } from "../helpers/api-validator";
import { createAttributes } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";

/**
 * JSON:API and HTTP conformance of every API, through the route handlers as Next calls
 * them. Every answer is also held to the OpenAPI document and the official JSON:API schema
 * (tests/helpers/api-validator.ts), which the last block proves catches what it should.
 */

const t = setUpTestDb();
const APP_URL = "https://pay.example.test";
const previousAppUrl = process.env.APP_URL;
beforeAll(() => {
  process.env.APP_URL = APP_URL;
});
afterAll(() => {
  if (previousAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = previousAppUrl;
});

let loggedErrors: unknown[] = [];
beforeEach(() => {
  resetRateLimits();
  loggedErrors = [];
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "error").mockImplementation((...args: unknown[]) => void loggedErrors.push(args));
});
afterEach(() => {
  vi.restoreAllMocks();
  expect(loggedErrors).toEqual([]);
});

type ErrorObject = { status: string; code: string; detail: string; source?: { pointer?: string; parameter?: string } };
type Doc = {
  data: Record<string, unknown> & { id: string; links: { self: string } };
  errors: ErrorObject[];
  meta: Record<string, unknown>;
  links: { self: string; next: string | null };
};
type Answer = { status: number; headers: Headers; text: string; json: Doc };
type Call = { method?: string; path: string; key?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> };

/** The request names a forged host (URL, Host, X-Forwarded-Host): nothing the server answers may use it. */
const FORGED_ORIGIN = "http://evil.example";
const FORGED_HEADERS = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

async function send<P>(handler: RouteHandler<P>, params: P, call: Call): Promise<Answer> {
  const headers = new Headers({ ...FORGED_HEADERS, ...call.headers });
  if (call.key) headers.set("authorization", `Bearer ${call.key}`);
  const hasBody = call.body !== undefined || call.rawBody !== undefined;
  if (hasBody && !headers.has("content-type")) headers.set("content-type", "application/vnd.api+json");
  const init: RequestInit = { method: call.method ?? "GET", headers };
  if (hasBody) init.body = call.rawBody ?? JSON.stringify(call.body);
  const response = await handler(new Request(`${FORGED_ORIGIN}${call.path}`, init), { params: Promise.resolve(params) });
  const text = await response.text();
  assertValidApiResponse({ method: init.method!, url: call.path, status: response.status, headers: response.headers, body: text });
  expect(text).not.toContain("evil.example");
  return { status: response.status, headers: response.headers, text, json: (text ? JSON.parse(text) : undefined) as Doc };
}

function expectError(answer: Answer, status: number, code: string, source?: { pointer?: string; parameter?: string }) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get("content-type")).toBe("application/vnd.api+json");
  expect(answer.json.errors).toEqual(expect.arrayContaining([expect.objectContaining({ status: String(status), code, ...(source ? { source } : {}) })]));
  expect(answer.json.meta.request_id).toBe(answer.headers.get("x-request-id"));
}

const PAYMENTS = "/api/commerce/payment-invoices";
const EUR = PAYMENT_EXAMPLES["B: EUR with customer"];

let m: InvoiceMerchant;
let connectionId = "";
beforeAll(async () => {
  m = await invoiceMerchant(t.db);
  connectionId = (await connect(t.db, m.merchantId, "provider-b", "h2h")).id;
});

const eurBody = (overrides: Record<string, unknown> = {}) => bodyFor(EUR, m.account, { reference_id: newReference(), ...overrides });
const postPayment = (body: unknown, extra: Partial<Call> = {}) => send(POST_PAYMENT, {}, { method: "POST", path: PAYMENTS, key: m.key, body, ...extra });

describe("absolute URLs come from APP_URL, never from the request's Host", () => {
  it("Location, links.self, the attempts relationship's related link and hpp_url of a created invoice", async () => {
    const answer = await postPayment(eurBody());
    expect(answer.status).toBe(201);
    const self = `${APP_URL}${PAYMENTS}/${answer.json.data.id}`;
    expect(answer.headers.get("location")).toBe(self);
    // JSON:API lets a resource's links hold only self: the attempts are a relationship, the connection kept beside it.
    expect(answer.json.data.links).toEqual({ self });
    expect(answer.json.data.relationships).toEqual({
      connection: { data: { type: "connection", id: connectionId } },
      attempts: { links: { related: `${self}/attempts` } },
      refunds: { links: { related: `${self}/refunds` } },
      disputes: { links: { related: `${APP_URL}/api/commerce/disputes?filter%5Binvoice%5D=${answer.json.data.id}` } },
    });
    expect(String((answer.json.data.attributes as { hpp_url: string }).hpp_url).startsWith(`${APP_URL}/pay/`)).toBe(true);
    const attempts = await send(GET_PAYMENT_ATTEMPTS, { id: answer.json.data.id }, { path: `${PAYMENTS}/${answer.json.data.id}/attempts`, key: m.key });
    expect(attempts.json.links.self).toBe(`${self}/attempts`);
  });

  it("a list's links.self and links.next percent-encode the filter[…] and page[…] brackets", async () => {
    for (let i = 0; i < 2; i++) expect((await postPayment(eurBody())).status).toBe(201);
    const answer = await send(LIST_PAYMENTS, {}, { path: `${PAYMENTS}?filter[status]=created&page[size]=1`, key: m.key });
    expect(answer.status).toBe(200);
    expect(answer.json.links.self).toBe(`${APP_URL}${PAYMENTS}?filter%5Bstatus%5D=created&page%5Bsize%5D=1`);
    expect(answer.json.links.next).toMatch(new RegExp(`^${APP_URL}${PAYMENTS}\\?filter%5Bstatus%5D=created&page%5Bsize%5D=1&page%5Bafter%5D=[A-Za-z0-9_%-]+$`));
    expect(new URL(answer.json.links.next!).searchParams.get("filter[status]")).toBe("created");
  });

  it("connections, routing orders and the OpenAPI document's servers", async () => {
    const created = await send(
      connectionsRoute.POST,
      {},
      {
        method: "POST",
        path: "/api/connections",
        key: m.key,
        body: { data: { type: "connection", attributes: createAttributes("provider-b", "h2h", "test") } },
      },
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`${APP_URL}/api/connections/${created.json.data.id}`);
    const orders = await send(routingRoute.GET, {}, { path: "/api/routing", key: m.key });
    expect((orders.json.data as unknown as { links: { self: string } }[]).map((order) => order.links.self)).toContain(
      `${APP_URL}/api/routing/payment_card_eur_hpp:test`,
    );
    const openapi = await GET_OPENAPI(new Request(`${FORGED_ORIGIN}/api/commerce/openapi.json`, { headers: FORGED_HEADERS }), { params: Promise.resolve({}) });
    expect(((await openapi.json()) as { servers: unknown }).servers).toEqual([{ url: APP_URL }]);
  });
});

describe("JSON:API media type parameters (1.1)", () => {
  it("415 when Content-Type is the JSON:API media type with a parameter other than ext or profile", async () => {
    for (const contentType of ["application/vnd.api+json; charset=utf-8", 'application/vnd.api+json; ext="https://example.com/ext"']) {
      expectError(await postPayment(eurBody(), { headers: { "content-type": contentType } }), 415, "unsupported_media_type");
      expectError(
        await send(connectionsRoute.POST, {}, { method: "POST", path: "/api/connections", key: m.key, body: {}, headers: { "content-type": contentType } }),
        415,
        "unsupported_media_type",
      );
    }
    const profiled = await postPayment(eurBody(), { headers: { "content-type": 'application/vnd.api+json; profile="https://example.com/profile"' } });
    expect(profiled.status).toBe(201);
  });

  it("406 when every JSON:API media type in Accept carries such a parameter; fine when one does not", async () => {
    const refused = { accept: "application/vnd.api+json; charset=utf-8" };
    expectError(await send(providersRoute.GET, {}, { path: "/api/providers", headers: refused }), 406, "not_acceptable");
    expectError(await send(routingRoute.GET, {}, { path: "/api/routing", key: m.key, headers: refused }), 406, "not_acceptable");
    expectError(await send(GET_PAYMENT, { id: "cpi_x" }, { path: `${PAYMENTS}/cpi_x`, key: m.key, headers: refused }), 406, "not_acceptable");
    const accepted = await send(
      providersRoute.GET,
      {},
      { path: "/api/providers", headers: { accept: "application/vnd.api+json; charset=utf-8, application/vnd.api+json" } },
    );
    expect(accepted.status).toBe(200);
  });
});

describe("query parameters: 400 for anything a route does not document, named in source.parameter", () => {
  it.each([
    ["the invoice list", LIST_PAYMENTS, {}, PAYMENTS],
    ["one invoice", GET_PAYMENT, { id: "cpi_x" }, `${PAYMENTS}/cpi_x`],
    ["the connections list", connectionsRoute.GET, {}, "/api/connections"],
    ["one connection", connectionRoute.GET, { id: "conn_x" }, "/api/connections/conn_x"],
    ["the routing orders", routingRoute.GET, {}, "/api/routing"],
    ["one routing order", routingOrderRoute.GET, { id: "payment_card_eur_hpp:test" }, "/api/routing/payment_card_eur_hpp:test"],
    ["the providers", providersRoute.GET, {}, "/api/providers"],
    ["a routing order's versions", routingVersionsRoute.GET, { id: "payment_card_eur_hpp:test" }, "/api/routing/payment_card_eur_hpp:test/versions"],
    ["one routing version", routingVersionRoute.GET, { id: "payment_card_eur_hpp:test", version: "1" }, "/api/routing/payment_card_eur_hpp:test/versions/1"],
    ["a comparison of routing versions", routingCompareRoute.GET, { id: "payment_card_eur_hpp:test" }, "/api/routing/payment_card_eur_hpp:test/compare"],
  ] as [string, RouteHandler<unknown>, unknown, string][])("%s refuses include, sort and unknown names", async (_name, handler, params, path) => {
    const answer = await send(handler, params, { path: `${path}?include=connection&sort=-created&fields[x]=a&colour=red`, key: m.key });
    expect(answer.status).toBe(400);
    expect(answer.json.errors.map((error) => [error.code, error.source?.parameter])).toEqual([
      ["unsupported_parameter", "include"],
      ["unsupported_parameter", "sort"],
      ["unsupported_parameter", "fields[x]"],
      ["unknown_parameter", "colour"],
    ]);
    expect(answer.json.meta.request_id).toBe(answer.headers.get("x-request-id"));
  });

  it("keeps the documented filters: filter[…]/page[…] on invoices, filter[mode|state|provider] on connections", async () => {
    expect((await send(LIST_PAYMENTS, {}, { path: `${PAYMENTS}?filter[status]=created&page[size]=5`, key: m.key })).status).toBe(200);
    const connections = await send(
      connectionsRoute.GET,
      {},
      { path: "/api/connections?filter[mode]=test&filter[state]=enabled&filter[provider]=provider-b", key: m.key },
    );
    expect(connections.status).toBe(200);
    expect((connections.json.data as unknown as { id: string }[]).map((c) => c.id)).toContain(connectionId);
    expectError(await send(connectionsRoute.GET, {}, { path: "/api/connections?filter[mode]=sandbox", key: m.key }), 400, "invalid_parameter", {
      parameter: "filter[mode]",
    });
  });
});

describe("request documents", () => {
  it("403 for a client-generated data.id on create, pointing at /data/id", async () => {
    const body = eurBody();
    expectError(await postPayment({ data: { ...body.data, id: "cpi_mine" } }), 403, "client_generated_id", { pointer: "/data/id" });
    const connection = { data: { type: "connection", id: "conn_mine", attributes: createAttributes("provider-b", "h2h", "test") } };
    expectError(await send(connectionsRoute.POST, {}, { method: "POST", path: "/api/connections", key: m.key, body: connection }), 403, "client_generated_id", {
      pointer: "/data/id",
    });
  });

  it("meta members are allowed at the top level and in data", async () => {
    const body = eurBody();
    const withMeta = { meta: { sent_by: "checkout" }, jsonapi: { version: "1.1" }, data: { ...body.data, meta: { cart: 42 } } };
    expect((await postPayment(withMeta)).status).toBe(201);
    const connection = { meta: { note: "x" }, data: { type: "connection", meta: { y: 1 }, attributes: createAttributes("provider-b", "h2h", "test") } };
    expect((await send(connectionsRoute.POST, {}, { method: "POST", path: "/api/connections", key: m.key, body: connection })).status).toBe(201);
  });

  it('an amount written as a number with an exponent (1e3) is refused exactly like the string "1e3"', async () => {
    const reference = newReference();
    const text = JSON.stringify(eurBody({ reference_id: reference, amount: 1000 })).replace('"amount":1000', '"amount":1e3');
    expect(text).toContain('"amount":1e3');
    const asNumber = await postPayment(undefined, { rawBody: text });
    const asString = await postPayment(eurBody({ amount: "1e3" }));
    expectError(asNumber, 422, "invalid_amount", { pointer: "/data/attributes/amount" });
    expect(asNumber.json.errors).toEqual(asString.json.errors);
    const plain = await postPayment(undefined, { rawBody: text.replace('"amount":1e3', '"amount":1000') });
    expect(plain.status).toBe(201);
  });

  it("413 for a body over 64 KiB, with the request id", async () => {
    const answer = await postPayment(undefined, {
      rawBody: JSON.stringify(eurBody({ description: "x".repeat(70_000) })),
      headers: { "x-request-id": "big-1" },
    });
    expectError(answer, 413, "payload_too_large");
    expect(answer.headers.get("x-request-id")).toBe("big-1");
  });
});

describe("methods a route does not serve: JSON:API 405 with Allow and the request id; OPTIONS lists them", () => {
  it.each([
    ["/api/connections", connectionsRoute, ["PUT", "PATCH", "DELETE"], "GET, HEAD, POST, OPTIONS"],
    ["/api/connections/conn_x", connectionRoute, ["POST", "PUT"], "GET, HEAD, PATCH, DELETE, OPTIONS"],
    ["/api/routing", routingRoute, ["POST", "PUT", "PATCH", "DELETE"], "GET, HEAD, OPTIONS"],
    ["/api/routing/payment_card_eur_hpp:test", routingOrderRoute, ["POST", "PUT", "DELETE"], "GET, HEAD, PATCH, OPTIONS"],
    ["/api/providers", providersRoute, ["POST", "PUT", "PATCH", "DELETE"], "GET, HEAD, OPTIONS"],
    ["/api/routing/payment_card_eur_hpp:test/versions", routingVersionsRoute, ["POST", "PUT", "PATCH", "DELETE"], "GET, HEAD, OPTIONS"],
    ["/api/routing/payment_card_eur_hpp:test/versions/1", routingVersionRoute, ["POST", "PUT", "PATCH", "DELETE"], "GET, HEAD, OPTIONS"],
    ["/api/routing/payment_card_eur_hpp:test/compare", routingCompareRoute, ["POST", "PUT", "PATCH", "DELETE"], "GET, HEAD, OPTIONS"],
    ["/api/routing/payment_card_eur_hpp:test/rollback", routingRollbackRoute, ["GET", "PUT", "PATCH", "DELETE"], "POST, OPTIONS"],
  ] as [string, Record<string, RouteHandler<unknown>>, string[], string][])("%s", async (path, module, refused, allow) => {
    for (const method of refused) {
      const answer = await send(module[method]!, {}, { method, path, key: m.key, headers: { "x-request-id": `r-${method}` } });
      expectError(answer, 405, "method_not_allowed");
      expect(answer.headers.get("allow")).toBe(allow);
      expect(answer.headers.get("x-request-id")).toBe(`r-${method}`);
    }
    const options = await send(module.OPTIONS!, {}, { method: "OPTIONS", path });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe(allow);
  });
});

describe("the OpenAPI document states what the server enforces", () => {
  it("every example invoice of the spec is a valid request body", () => {
    for (const [name, example] of Object.entries(PAYMENT_EXAMPLES)) {
      expect(requestBodyProblems(PAYMENTS, "post", bodyFor(example, "main")), name).toEqual([]);
    }
    expect(requestBodyProblems("/api/commerce/payout-invoices", "post", payoutExample())).toEqual([]);
  });

  const customer = (changes: Record<string, unknown>) => ({
    customer: { email: "a@example.com", phone: "+442079460958", date_of_birth: "1990-04-21", address: { country: "GB" }, ...changes },
  });
  const refusedByBoth: [string, Record<string, unknown>, string][] = [
    ['amount "1e3"', { amount: "1e3" }, "/data/attributes/amount"],
    ['amount "0.00"', { amount: "0.00" }, "/data/attributes/amount"],
    ["amount with three decimals", { amount: "1.005" }, "/data/attributes/amount"],
    ["amount with 13 integer digits", { amount: 1234567890123 }, "/data/attributes/amount"],
    ["negative amount", { amount: -5 }, "/data/attributes/amount"],
    ["e-mail", customer({ email: "not-an-address" }), "/data/attributes/customer/email"],
    ["phone", customer({ phone: "0207 946 0958" }), "/data/attributes/customer/phone"],
    ["date that does not exist", customer({ date_of_birth: "2023-02-30" }), "/data/attributes/customer/date_of_birth"],
    ["country", customer({ address: { country: "XX" } }), "/data/attributes/customer/address/country"],
    ["unknown service", { service: "payment_card_xyz_hpp" }, "/data/attributes/service"],
    ["blank commerce_account", { commerce_account: "   " }, "/data/attributes/commerce_account"],
    ["return_url that is not http(s)", { return_url: "ftp://shop.example.com/" }, "/data/attributes/return_url"],
  ];

  it.each(refusedByBoth)("%s: the document refuses it and so does the server", async (_name, overrides, pointer) => {
    const body = paymentWith({ commerce_account: m.account, reference_id: newReference(), ...overrides });
    expect(requestBodyProblems(PAYMENTS, "post", body)).not.toEqual([]);
    const answer = await postPayment(body);
    expect(answer.status, answer.text).toBe(422);
    expect(answer.json.errors.map((error) => error.source?.pointer)).toContain(pointer);
  });

  it("a payout card number the pattern refuses is refused by the server; a Luhn mismatch is the server's rule alone", async () => {
    for (const card of ["4111-1111", "41111111111111111111", "4111 11** 1111 1111", "card"]) {
      const body = payoutExample({ commerce_account: m.account, reference_id: newReference(), fields: { card_number: card } });
      expect(requestBodyProblems("/api/commerce/payout-invoices", "post", body), card).not.toEqual([]);
      const answer = await send(POST_PAYOUT, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body });
      expect(answer.status, card).toBe(422);
    }
    const luhn = payoutExample({ commerce_account: m.account, reference_id: newReference(), fields: { card_number: "4111 1111 1111 1112" } });
    expect(requestBodyProblems("/api/commerce/payout-invoices", "post", luhn)).toEqual([]);
    expect((await send(POST_PAYOUT, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body: luhn })).status).toBe(422);
  });
});

describe("the response validator", () => {
  const secured = {
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
  const ok = { "content-type": "application/vnd.api+json", "x-request-id": "r1", ...secured };
  const error = JSON.stringify({ errors: [{ status: "404", code: "not_found", title: "Not found", detail: "x" }], meta: { request_id: "r1" } });

  it("fails an undocumented status, an undocumented content type and a missing request id", () => {
    expect(apiResponseProblems({ method: "GET", url: `${PAYMENTS}/cpi_x`, status: 418, headers: new Headers(ok), body: error }).join()).toMatch(
      /418 is not documented/,
    );
    expect(
      apiResponseProblems({
        method: "GET",
        url: `${PAYMENTS}/cpi_x`,
        status: 404,
        headers: new Headers({ ...ok, "content-type": "text/html" }),
        body: error,
      }).join(),
    ).toMatch(/text\/html is not documented/);
    expect(
      apiResponseProblems({
        method: "GET",
        url: `${PAYMENTS}/cpi_x`,
        status: 404,
        headers: new Headers({ "content-type": "application/vnd.api+json" }),
        body: error,
      }).join(),
    ).toMatch(/X-Request-Id/);
  });

  it("fails a link that is not a valid URI, a body off the JSON:API schema, and a 405 without Allow", () => {
    const list = (self: string) => JSON.stringify({ data: [], links: { self, next: null }, meta: { page_size: 20 } });
    expect(
      apiResponseProblems({
        method: "GET",
        url: PAYMENTS,
        status: 200,
        headers: new Headers(ok),
        body: list(`${APP_URL}${PAYMENTS}?filter%5Bstatus%5D=created`),
      }),
    ).toEqual([]);
    expect(
      apiResponseProblems({
        method: "GET",
        url: PAYMENTS,
        status: 200,
        headers: new Headers(ok),
        body: list(`${APP_URL}${PAYMENTS}?filter[status]=created`),
      }).join(),
    ).toMatch(/documented schema/);
    expect(
      apiResponseProblems({
        method: "GET",
        url: "/api/connections",
        status: 200,
        headers: new Headers(ok),
        body: JSON.stringify({ data: { providers: [] } }),
      }).join(),
    ).toMatch(/not a JSON:API document/);
    expect(apiResponseProblems({ method: "PUT", url: PAYMENTS, status: 405, headers: new Headers(ok), body: error }).join()).toMatch(/no Allow header/);
  });

  it("fails an answer without any one of the API's security headers, or with a weaker value", () => {
    expect(apiResponseProblems({ method: "GET", url: `${PAYMENTS}/cpi_x`, status: 404, headers: new Headers(ok), body: error })).toEqual([]);
    for (const name of Object.keys(secured)) {
      const without = new Headers(ok);
      without.delete(name);
      expect(apiResponseProblems({ method: "GET", url: `${PAYMENTS}/cpi_x`, status: 404, headers: without, body: error }).join(), name).toContain(name);
    }
    const cached = new Headers({ ...ok, "cache-control": "private, max-age=60" });
    expect(apiResponseProblems({ method: "GET", url: `${PAYMENTS}/cpi_x`, status: 404, headers: cached, body: error }).join()).toContain("cache-control");
  });

  it("holds a resource's links to self alone and a relationship's to its own members, as the official JSON:API 1.0 schema does", async () => {
    const created = await postPayment(eurBody());
    const invoice = created.json.data as Record<string, unknown> & { links: { self: string } };
    const answer = (data: unknown) =>
      apiResponseProblems({ method: "GET", url: `${PAYMENTS}/${invoice.id}`, status: 200, headers: new Headers(ok), body: JSON.stringify({ data }) });
    expect(answer(invoice)).toEqual([]);
    expect(answer({ ...invoice, links: { ...invoice.links, attempts: `${invoice.links.self}/attempts` } }).join()).toMatch(/not a JSON:API document/);
    const relationships = invoice.relationships as Record<string, unknown>;
    const oddLink = { ...relationships, attempts: { links: { related: `${invoice.links.self}/attempts`, list: `${invoice.links.self}/attempts` } } };
    expect(answer({ ...invoice, relationships: oddLink }).join()).toMatch(/not a JSON:API document/);
  });
});

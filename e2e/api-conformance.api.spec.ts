import http from "node:http";
import { expect, test } from "@playwright/test";
import { assertValidApiResponse } from "../tests/helpers/api-validator";
import { merchantWithKey } from "./support/accounts";
import { fKeys } from "./support/connections";

/**
 * JSON:API and HTTP conformance through the server as run (server.ts: the lean path for
 * /api/commerce, Next for the management API), over node:http so headers such as Host can be
 * forged and a body can be streamed in chunks. Every answer is also held to the OpenAPI document
 * and the official JSON:API schema.
 */

type Raw = { status: number; headers: Headers; text: string; sent: number };

const PORT = Number(process.env.E2E_PORT ?? 3107);
const ORIGIN = `http://127.0.0.1:${PORT}`;
/** playwright.config.ts gives the server this APP_URL. */
const APP_URL = ORIGIN;

/**
 * One request over node:http. `chunkedBytes` streams that many bytes in 16 KiB chunks with
 * Transfer-Encoding: chunked (no Content-Length). Resolves once the answer is read to its end;
 * a connection reset before that rejects.
 */
function raw(method: string, path: string, options: { headers?: Record<string, string>; body?: string; chunkedBytes?: number } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    const request = http.request(`${ORIGIN}${path}`, { method, headers: options.headers ?? {}, setHost: !options.headers?.host });
    request.on("error", reject);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (typeof value === "string") headers.set(name, value);
          else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        }
        const answer = { status: response.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8"), sent };
        assertValidApiResponse({ method, url: path, status: answer.status, headers, body: answer.text });
        resolve(answer);
      });
    });
    if (options.chunkedBytes) {
      const chunk = Buffer.alloc(16 * 1024, "x");
      const writeMore = () => {
        while (sent < options.chunkedBytes!) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once("drain", writeMore);
        }
        request.end();
      };
      writeMore();
    } else {
      request.end(options.body);
    }
  });
}

function expectJsonApiError(answer: Raw, status: number, code: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get("content-type")).toBe("application/vnd.api+json");
  const body = JSON.parse(answer.text) as { errors: { status: string; code: string }[]; meta: { request_id: string } };
  expect(body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ status: String(status), code })]));
  expect(answer.headers.get("x-request-id")).toMatch(/\S/);
  expect(body.meta.request_id).toBe(answer.headers.get("x-request-id"));
}

const FORGED = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

let apiKey = "";
let commerceAccount = "";
let connectionId = "";
let invoiceId = "";

const auth = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${apiKey}`, ...extra });
const JSON_BODY = { "content-type": "application/vnd.api+json" };

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }) => {
  const merchant = await merchantWithKey(browser);
  apiKey = merchant.apiKey;
  commerceAccount = merchant.commerceAccount;
  const keys = fKeys("dev");
  const created = await raw("POST", "/api/connections", {
    headers: auth(JSON_BODY),
    body: JSON.stringify({
      data: {
        type: "connection",
        attributes: {
          provider: "provider-f",
          kind: "h2h",
          label: "F conformance",
          credentials: { public_key: keys.publicKey, secret_key: keys.secretKey, test_mode: true, currency: "EUR" },
        },
      },
    }),
  });
  expect(created.status, created.text).toBe(201);
  connectionId = (JSON.parse(created.text) as { data: { id: string } }).data.id;
});

test("links, Location and servers are on APP_URL even when Host and X-Forwarded-Host are forged", async () => {
  const created = await raw("POST", "/api/commerce/payment-invoices", {
    headers: auth({ ...JSON_BODY, ...FORGED }),
    body: JSON.stringify({
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: commerceAccount,
          currency: "EUR",
          amount: "12.50",
          reference_id: crypto.randomUUID(),
          flow: "charge",
          test_mode: true,
        },
      },
    }),
  });
  expect(created.status, created.text).toBe(201);
  const invoice = JSON.parse(created.text) as { data: { id: string; links: { self: string }; attributes: { hpp_url: string } } };
  invoiceId = invoice.data.id;
  expect(created.headers.get("location")).toBe(`${APP_URL}/api/commerce/payment-invoices/${invoiceId}`);
  expect(invoice.data.links.self).toBe(`${APP_URL}/api/commerce/payment-invoices/${invoiceId}`);
  expect(invoice.data.attributes.hpp_url.startsWith(`${APP_URL}/pay/`)).toBe(true);

  const list = await raw("GET", "/api/commerce/payment-invoices?filter[status]=created&page[size]=1", { headers: auth(FORGED) });
  expect(list.status, list.text).toBe(200);
  const links = (JSON.parse(list.text) as { links: { self: string } }).links;
  // The brackets come percent-encoded: a valid URI (RFC 3986), on APP_URL.
  expect(links.self).toBe(`${APP_URL}/api/commerce/payment-invoices?filter%5Bstatus%5D=created&page%5Bsize%5D=1`);

  const connections = await raw("GET", "/api/connections?filter[mode]=test", { headers: auth(FORGED) });
  expect(connections.status, connections.text).toBe(200);
  expect((JSON.parse(connections.text) as { data: { links: { self: string } }[] }).data[0]!.links.self).toBe(`${APP_URL}/api/connections/${connectionId}`);

  const routing = await raw("GET", "/api/routing", { headers: auth(FORGED) });
  expect(routing.status, routing.text).toBe(200);
  for (const order of (JSON.parse(routing.text) as { data: { links: { self: string } }[] }).data)
    expect(order.links.self.startsWith(`${APP_URL}/api/routing/`)).toBe(true);

  const openapi = await raw("GET", "/api/commerce/openapi.json", { headers: FORGED });
  expect((JSON.parse(openapi.text) as { servers: { url: string }[] }).servers).toEqual([{ url: APP_URL }]);
});

test("a body streamed in chunks past 64 KiB gets a 413 the client reads before the connection closes", async () => {
  for (const [method, path] of [
    ["POST", "/api/commerce/payment-invoices"],
    ["POST", "/api/connections"],
    ["PATCH", `/api/connections/${connectionId}`],
  ] as const) {
    const answer = await raw(method, path, { headers: auth({ "content-type": "application/json" }), chunkedBytes: 1024 * 1024 });
    expect(answer.sent).toBe(1024 * 1024);
    expectJsonApiError(answer, 413, "payload_too_large");
  }
});

test("HEAD answers wherever GET does, with GET's status and headers and no body", async () => {
  for (const path of [
    "/api/commerce/payment-invoices",
    `/api/commerce/payment-invoices/${invoiceId}`,
    `/api/commerce/payment-invoices/${invoiceId}/attempts`,
    "/api/commerce/openapi.json",
    "/api/connections",
    `/api/connections/${connectionId}`,
    "/api/routing",
    "/api/routing/payment_card_eur_hpp:test",
    "/api/providers",
  ]) {
    const get = await raw("GET", path, { headers: auth() });
    const head = await raw("HEAD", path, { headers: auth() });
    expect(get.status, path).toBe(200);
    expect(head.status, path).toBe(200);
    expect(head.text, path).toBe("");
    expect(head.headers.get("content-type"), path).toBe(get.headers.get("content-type"));
    expect(head.headers.get("x-request-id"), path).toMatch(/\S/);
  }
});

test("a method a route does not serve answers a JSON:API 405 with Allow and the request id, on Next's routes too", async () => {
  for (const [method, path, allow] of [
    ["PUT", "/api/connections", "GET, HEAD, POST, OPTIONS"],
    ["POST", `/api/connections/${connectionId}`, "GET, HEAD, PATCH, DELETE, OPTIONS"],
    ["DELETE", "/api/routing", "GET, HEAD, OPTIONS"],
    ["POST", "/api/providers", "GET, HEAD, OPTIONS"],
    ["DELETE", "/api/commerce/payment-invoices", undefined],
  ] as const) {
    const answer = await raw(method, path, { headers: auth({ "x-request-id": "e2e-405" }) });
    expectJsonApiError(answer, 405, "method_not_allowed");
    expect(answer.headers.get("x-request-id")).toBe("e2e-405");
    if (allow) expect(answer.headers.get("allow")).toBe(allow);
  }
});

test("JSON:API negotiation: 415 for a media type parameter, 406 when no acceptable JSON:API type, 400 for include and sort", async () => {
  const body = JSON.stringify({ data: { type: "connection", attributes: {} } });
  expectJsonApiError(
    await raw("POST", "/api/connections", { headers: auth({ "content-type": "application/vnd.api+json; charset=utf-8" }), body }),
    415,
    "unsupported_media_type",
  );
  expectJsonApiError(await raw("GET", "/api/providers", { headers: { accept: "application/vnd.api+json; version=2" } }), 406, "not_acceptable");
  expectJsonApiError(await raw("GET", "/api/connections?include=merchant", { headers: auth() }), 400, "unsupported_parameter");
  expectJsonApiError(await raw("GET", "/api/commerce/payment-invoices?sort=-created", { headers: auth() }), 400, "unsupported_parameter");
});

import fs from "node:fs";
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { expect, test } from "@playwright/test";
import { apiResponseProblems } from "../tests/helpers/api-validator";
import { createApiKey, signUp } from "./support/accounts";
import { fKeys } from "./support/connections";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { cardFieldErrors } from "../lib/pay/card-checks";
import type { ConnectionKind } from "../lib/providers/types";
import { findUnsafeText } from "../lib/text-safety";
import {
  bodyArb,
  CALLBACK_SLUGS,
  callbackCaseArb,
  headersArb,
  headerValue,
  inPool,
  originArb,
  pacer,
  pathIdArb,
  payBodyArb,
  queryArb,
  rawComponent,
  send,
  type BadAnswer,
  type BadRequest,
  type CallbackCase,
} from "./support/bad-input";

/**
 * Against the server as run (server.ts): every
 * operation of the OpenAPI document (the invoice API and the management API), the hosted page
 * with its Pay, status poll and 3-D Secure return, and the providers' callbacks get generated
 * bodies, headers, query strings and path ids. Whatever comes in: never a 5xx, never a hang, every
 * refusal of a JSON:API route a JSON:API error document (each error with its status; a 400/422
 * about a field names it in source.pointer or source.parameter), a refused Pay names the wrong card
 * fields, and a refused request stores nothing: no invoice, no provider attempt, no status change.
 */

const PORT = Number(process.env.E2E_PORT ?? 3107);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CONCURRENCY = 16;
const TIMEOUT_MS = 15_000;
const API_RUNS = 560; // × 16 requests per run
const PAGE_RUNS = 80; // × 16 requests per run
const SEED = Number(process.env.BAD_INPUT_SEED ?? Date.now() % 2 ** 31);
/** 400s about the document as a whole (not JSON, wrong media type, too deep): no member to point at. */
const DOCUMENT_LEVEL_CODES = new Set([
  "malformed_path",
  "invalid_json",
  "malformed_json",
  "malformed_multipart",
  "bad_request",
  "invalid_body",
  "body_too_deep",
  "invalid_document",
]);

type Operation = { method: string; template: string; query: string[]; body: boolean };
type Json = NonNullable<Parameters<typeof bodyArb>[0]>;

const apiKeys: string[] = [];
let liveKey = "";
const operations: Operation[] = [];
const validBodies = new Map<string, Json>();
const realIds: Record<string, string[]> = {};
let hostedIds: string[] = [];
let commerceAccount = "";
/** The setup invoices' references: each generated body gets a fresh one, so a near-valid create is not refused only as a duplicate. */
const setupReferences: string[] = [];
let referenceCounter = 0;

test.describe.configure({ mode: "serial" });

// Setup reads a few members of known documents; typing each would add nothing the assertions do not check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(method: string, path: string, body?: unknown, key = apiKeys[0]): Promise<{ status: number; json: any }> {
  const answer = await send(
    ORIGIN,
    {
      method,
      path,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/vnd.api+json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    TIMEOUT_MS,
  );
  if (!("status" in answer)) throw new Error(`setup ${method} ${path}: ${JSON.stringify(answer)}`);
  if (answer.status >= 300) console.log(`setup ${method} ${path}: ${answer.status} ${answer.text.slice(0, 500)}`);
  return { status: answer.status, json: answer.text ? JSON.parse(answer.text) : undefined };
}

/** Everything a list shows, page after page. */
async function countAll(path: string): Promise<number> {
  let count = 0;
  let next: string | null = `${path}${path.includes("?") ? "&" : "?"}page[size]=100`;
  while (next) {
    const { status, json } = await api("GET", next.replace(ORIGIN, ""));
    expect(status).toBe(200);
    count += (json.data as unknown[]).length;
    next = (json.links?.next as string | null | undefined) ?? null;
  }
  return count;
}

async function counts() {
  return {
    paymentInvoices: await countAll("/api/commerce/payment-invoices"),
    payoutInvoices: await countAll("/api/commerce/payout-invoices"),
    // A key lists its own mode's connections only: the test keys' and the live key's together are all of them.
    connections:
      ((await api("GET", "/api/connections")).json.data as unknown[]).length +
      ((await api("GET", "/api/connections", undefined, liveKey)).json.data as unknown[]).length,
  };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = await signUp(page);
  commerceAccount = account.commerceAccount;
  // Three keys: 10,000 requests in about a minute is more than one key's 100 per second.
  for (const name of ["bad-input-1", "bad-input-2", "bad-input-3"]) apiKeys.push(await createApiKey(page, name));
  // A live key (the test invoices and connections below are not its: 404 and 403 key_mode_mismatch) and a read-only one (403 insufficient_scope on writes).
  liveKey = await createApiKey(page, "bad-input-live", { mode: "live" });
  apiKeys.push(liveKey, await createApiKey(page, "bad-input-read-only", { readOnly: true }));
  await context.close();

  const keys = fKeys("dev");
  const connection = {
    data: {
      type: "connection",
      attributes: {
        provider: "provider-f",
        kind: "h2h",
        label: "Bad input F",
        credentials: { public_key: keys.publicKey, secret_key: keys.secretKey, test_mode: true, currency: "EUR" },
      },
    },
  };
  const createdConnection = await api("POST", "/api/connections", connection);
  expect(createdConnection.status).toBe(201);
  const connectionId = createdConnection.json.data.id as string;

  const payment = {
    data: {
      type: "payment-invoice",
      attributes: {
        service: "payment_card_eur_hpp",
        commerce_account: account.commerceAccount,
        currency: "EUR",
        amount: "12.50",
        reference_id: `bad-${randomBytes(6).toString("hex")}`,
        flow: "charge",
        test_mode: true,
        options: { allow_partially: false },
      },
    },
  };
  const createdPayment = await api("POST", "/api/commerce/payment-invoices", payment);
  expect(createdPayment.status).toBe(201);
  const payout = {
    data: {
      type: "payout-invoice",
      attributes: {
        commerce_account: account.commerceAccount,
        reference_id: `bad-po-${randomBytes(6).toString("hex")}`,
        service: "payment_card_uah",
        currency: "UAH",
        amount: "250.75",
        test_mode: true,
        fields: { card_number: "4242424242424242" },
        options: { auto_process: false },
        customer: { reference_id: "cust-1", name: "Taras Shevchenko", address: { country: "UA", city: "Kyiv", street: "Khreshchatyk St 22" } },
      },
    },
  };
  // Payouts in UAH need a connection that pays out (Provider A here).
  const payoutConnection = await api("POST", "/api/connections", {
    data: {
      type: "connection",
      attributes: { provider: "provider-a", kind: "h2h", label: "Bad input A", mode: "test", credentials: sampleCredentials("provider-a", "h2h", "test") },
    },
  });
  expect(payoutConnection.status).toBe(201);
  const createdPayout = await api("POST", "/api/commerce/payout-invoices", payout);
  expect(createdPayout.status).toBe(201);
  const routing = await api("GET", "/api/routing");
  expect(routing.status).toBe(200);
  const order = routing.json.data[0] as { id: string; type: string; attributes: Json };

  // The creates are mutated with a fresh reference each time only by chance; a replayed reference is refused, which is fine.
  setupReferences.push(payment.data.attributes.reference_id, payout.data.attributes.reference_id);
  validBodies.set("POST /api/commerce/payment-invoices", payment as Json);
  validBodies.set("POST /api/commerce/payout-invoices", payout as Json);
  validBodies.set("POST /api/connections", connection as Json);
  validBodies.set("PATCH /api/connections/{id}", { data: { type: "connection", id: connectionId, attributes: { label: "Renamed" } } });
  validBodies.set("PATCH /api/routing/{id}", { data: { type: order.type, id: order.id, attributes: order.attributes } });
  validBodies.set("POST /api/routing/simulate", {
    data: {
      type: "routing-simulation",
      attributes: { service: "payment_card_eur_hpp", test_mode: true, amount: "12.50", customer_country: "FR", card_bin: "424242" },
    },
  });
  validBodies.set("POST /api/routing/{id}/rollback", { data: { type: "routing-rollback", attributes: { version: 1 } } });
  validBodies.set("PATCH /api/routing/settings", {
    data: { type: "routing-settings", id: "routing-settings", attributes: { window_hours: 12, min_sample: 10, exploration_percent: 5 } },
  });
  validBodies.set("POST /api/commerce/payout-invoices/{id}/process", { data: { type: "payout-invoice", id: createdPayout.json.data.id } });
  await savedCardAndAuthorization(account.commerceAccount);
  realIds["/api/connections/{id}"] = [connectionId];
  realIds["/api/routing/{id}"] = [order.id];
  realIds["/api/commerce/payment-invoices"] = [createdPayment.json.data.id];
  realIds["/api/commerce/payout-invoices"] = [createdPayout.json.data.id];
  hostedIds = [createdPayment.json.data.id, String(createdPayment.json.data.attributes.hpp_url).split("/pay/")[1]!];

  const openapi = await send(ORIGIN, { method: "GET", path: "/api/commerce/openapi.json", headers: {} }, TIMEOUT_MS);
  if (!("status" in openapi)) throw new Error("no OpenAPI document");
  const document = JSON.parse(openapi.text) as {
    paths: Record<string, Record<string, { parameters?: { name?: string; in?: string }[]; requestBody?: unknown }>>;
  };
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "post", "patch", "put", "delete"].includes(method)) continue;
      const query = (op.parameters ?? []).filter((p) => p.in === "query" && p.name).map((p) => p.name!);
      operations.push({ method: method.toUpperCase(), template, query, body: Boolean(op.requestBody) });
    }
  }
  expect(operations.length).toBeGreaterThanOrEqual(17);
});

function idsFor(template: string): string[] {
  // The longest prefix: a capture's own authorized payment before the payments' list.
  const key = Object.keys(realIds)
    .filter((prefix) => template.startsWith(prefix))
    .sort((a, b) => b.length - a.length)[0];
  return key ? realIds[key]! : ["x"];
}

/** Pays a payment on its hosted page's Pay, as the page's script does, with the test card that succeeds. */
async function payHosted(hppUrl: string): Promise<void> {
  const answer = await send(
    ORIGIN,
    {
      method: "POST",
      path: `/pay/${hppUrl.split("/pay/")[1]}/pay`,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ number: "4242424242424242", expiry: "12/30", cvc: "123", holder: "Bad Input" }),
    },
    TIMEOUT_MS,
  );
  expect("status" in answer && answer.status, JSON.stringify(answer).slice(0, 300)).toBe(200);
}

/**
 * Real ids for the saved-card and authorization routes: a card saved through Provider F (a payment
 * that asked to save it, paid), and a payment authorized through Provider B (the one provider here
 * that authorizes; its connection is disabled afterwards, which keeps the authorization capturable
 * and the other invoices routed as before).
 */
async function savedCardAndAuthorization(account: string): Promise<void> {
  const payment = (attributes: Record<string, unknown>) => ({
    data: {
      type: "payment-invoice",
      attributes: {
        service: "payment_card_eur_hpp",
        commerce_account: account,
        currency: "EUR",
        amount: "12.50",
        reference_id: `bad-setup-${randomBytes(6).toString("hex")}`,
        flow: "charge",
        test_mode: true,
        ...attributes,
      },
    },
  });
  const saving = await api(
    "POST",
    "/api/commerce/payment-invoices",
    payment({ gateway_options: { cardgate: { tokenize: "" } }, customer: { reference_id: "bad-input-customer" } }),
  );
  expect(saving.status).toBe(201);
  await payHosted(String(saving.json.data.attributes.hpp_url));
  const methods = await api("GET", "/api/commerce/payment-methods?filter[customer_reference]=bad-input-customer");
  expect(methods.status).toBe(200);
  realIds["/api/commerce/payment-methods"] = [(methods.json.data as { id: string }[])[0]!.id];

  const connectionB = await createConnection("provider-b", "h2h", sampleCredentials("provider-b", "h2h", "test"));
  const authorizing = await api("POST", "/api/commerce/payment-invoices", payment({ flow: "authorize" }));
  expect(authorizing.status).toBe(201);
  await payHosted(String(authorizing.json.data.attributes.hpp_url));
  const authorized = await api("GET", `/api/commerce/payment-invoices/${authorizing.json.data.id}`);
  expect(authorized.json.data.attributes.status).toBe("authorized");
  const disabled = await api("PATCH", `/api/connections/${connectionB}`, { data: { type: "connection", id: connectionB, attributes: { enabled: false } } });
  expect(disabled.status).toBe(200);
  for (const operation of ["capture", "void"]) realIds[`/api/commerce/payment-invoices/{id}/${operation}`] = [authorizing.json.data.id];
  validBodies.set("POST /api/commerce/payment-invoices/{id}/capture", { data: { type: "capture", attributes: { amount: "1.00" } } });
  validBodies.set("POST /api/commerce/payment-invoices/{id}/void", { data: { type: "void" } });
}

type Finding = { request: string; problem: string };

function describeRequest(request: BadRequest): string {
  return `${request.method} ${request.path.slice(0, 200)} headers=${JSON.stringify(request.headers).slice(0, 300)} body=${JSON.stringify(request.body?.slice(0, 200))}`;
}

/** Whether the path is one of the document's operations (an id is one segment); other paths are held only to "no 5xx, no hang". */
function isOperationPath(path: string): boolean {
  const pathname = path.split("?")[0]!;
  // `.` and `..` segments are resolved before routing (Next answers 308 to the resolved path).
  if (pathname.split("/").some((segment) => segment === "." || segment === "..")) return false;
  return operations.some((op) => new RegExp(`^${op.template.replace("{id}", "[^/]+").replace("{version}", "[^/]+")}$`).test(pathname));
}

/** What every answer must be; returns the problems with this one. */
function judge(request: BadRequest, answer: BadAnswer, jsonApi: boolean, documentLevel: ReadonlySet<string> = DOCUMENT_LEVEL_CODES): string[] {
  if ("hang" in answer) return [`no answer within ${TIMEOUT_MS} ms`];
  if ("reset" in answer) return [`connection ended without an answer: ${answer.reset}`];
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`${answer.status}: ${answer.text.slice(0, 300)}`);
  // A header section over 16 KiB (431) is refused by Node's parser, and answered by server.ts's clientError handler.
  if (!jsonApi || answer.status < 400 || request.method === "HEAD") return problems;
  if (answer.headers.get("content-type") !== "application/vnd.api+json")
    problems.push(`${answer.status} with Content-Type ${answer.headers.get("content-type")}`);
  let document: { errors?: { status?: unknown; code?: string; source?: { pointer?: unknown; parameter?: unknown; header?: unknown } }[] };
  try {
    document = JSON.parse(answer.text);
  } catch {
    return [...problems, `${answer.status} body is not JSON: ${answer.text.slice(0, 200)}`];
  }
  if (!Array.isArray(document.errors) || document.errors.length === 0) return [...problems, `${answer.status} without an errors array`];
  for (const error of document.errors) {
    if (typeof error.status !== "string" || !/^4\d\d$/.test(error.status)) problems.push(`error without a 4xx status: ${JSON.stringify(error)}`);
    if ((answer.status === 400 || answer.status === 422) && !documentLevel.has(String(error.code))) {
      const pointer = typeof error.source?.pointer === "string";
      const parameter = typeof error.source?.parameter === "string";
      const header = typeof error.source?.header === "string";
      if (!pointer && !parameter && !header) problems.push(`${answer.status} ${error.code} names no field: ${JSON.stringify(error)}`);
    }
  }
  return problems;
}

function report(name: string, data: Record<string, unknown>) {
  fs.mkdirSync("test-reports", { recursive: true });
  fs.writeFileSync(`test-reports/bad-input-${name}.json`, `${JSON.stringify(data, null, 2)}\n`);
  console.log(`bad input (${name}): ${JSON.stringify(data)}`);
}

test("every API operation answers generated bodies, headers, query strings and ids with a 4xx JSON:API error or a success, never a 5xx or a hang", async () => {
  test.setTimeout(240_000);
  const before = await counts();
  const requestArb = fc
    .tuple(fc.constantFrom(...operations), fc.nat({ max: 19 }), fc.constantFrom("PUT", "OPTIONS", "HEAD", "DELETE", "PATCH", "POST"))
    .chain(([operation, methodRoll, otherMethod]) =>
      fc.record({
        operation: fc.constant(operation),
        method: fc.constant(methodRoll === 0 ? otherMethod : operation.method),
        id: pathIdArb(idsFor(operation.template)),
        query: fc.oneof({ weight: 1, arbitrary: fc.constant("") }, { weight: 2, arbitrary: queryArb(operation.query) }),
        headers: headersArb(apiKeys),
        body: operation.body || methodRoll === 1 ? bodyArb(validBodies.get(`${operation.method} ${operation.template}`)) : fc.constant(undefined),
      }),
    )
    .map(({ operation, method, id, query, headers, body }): BadRequest => {
      // A routing version's number: the generated id stands in for it too (a real one, or anything at all).
      const path = operation.template.replace("{id}", id).replace("{version}", id.includes(":") ? "1" : id) + query;
      for (const reference of setupReferences) body = body?.split(reference).join(`${reference}-${++referenceCounter}`);
      return { method, path, headers, body };
    });

  let tried = 0;
  let fiveHundreds = 0;
  const statuses: Record<string, number> = {};
  const findings: Finding[] = [];
  const contract: Finding[] = [];
  const created = { paymentInvoices: new Set<string>(), payoutInvoices: new Set<string>(), connections: new Set<string>() };
  const deletedConnections = new Set<string>();
  const started = Date.now();

  await fc.assert(
    fc.asyncProperty(fc.array(requestArb, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (batch) => {
      await inPool(batch, CONCURRENCY, async (request) => {
        const answer = await send(ORIGIN, request, TIMEOUT_MS);
        tried++;
        if ("status" in answer) {
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (answer.status >= 500) fiveHundreds++;
          const pathname = request.path.split("?")[0]!;
          if (answer.status === 201 && request.method === "POST") {
            const id = (JSON.parse(answer.text) as { data: { id: string } }).data.id;
            if (pathname === "/api/commerce/payment-invoices") created.paymentInvoices.add(id);
            if (pathname === "/api/commerce/payout-invoices") created.payoutInvoices.add(id);
            if (pathname === "/api/connections") created.connections.add(id);
          }
          if (answer.status === 204 && request.method === "DELETE" && pathname.startsWith("/api/connections/")) deletedConnections.add(pathname);
          if (isOperationPath(request.path))
            for (const problem of apiResponseProblems({
              method: request.method,
              url: request.path,
              status: answer.status,
              headers: answer.headers,
              body: answer.text,
            })) {
              if (contract.length < 200) contract.push({ request: describeRequest(request), problem });
            }
        }
        for (const problem of judge(request, answer, isOperationPath(request.path))) findings.push({ request: describeRequest(request), problem });
      });
    }),
    { numRuns: API_RUNS, seed: SEED, endOnFailure: true },
  );
  const seconds = (Date.now() - started) / 1000;

  // Nothing stored for a refused request: the lists grew by exactly what was answered 201.
  const after = await counts();
  const stored = {
    paymentInvoices: after.paymentInvoices - before.paymentInvoices,
    payoutInvoices: after.payoutInvoices - before.payoutInvoices,
    connections: after.connections - before.connections,
  };
  report("http-api", {
    seed: SEED,
    tried,
    fiveHundreds,
    hangsOrResets: findings.filter((f) => /no answer|ended/.test(f.problem)).length,
    seconds,
    statuses,
    created: {
      paymentInvoices: created.paymentInvoices.size,
      payoutInvoices: created.payoutInvoices.size,
      connections: created.connections.size,
      connectionsDeleted: deletedConnections.size,
    },
    stored,
    findings: findings.length,
    contractFindings: contract.length,
    firstFindings: findings.slice(0, 300),
    firstContractFindings: contract.slice(0, 50),
  });
  expect(tried).toBeGreaterThanOrEqual(API_RUNS * CONCURRENCY);
  expect(findings.slice(0, 20), `seed ${SEED}: ${findings.length} findings`).toEqual([]);
  // Every answer to an operation's path keeps the OpenAPI document (tests/helpers/api-validator.ts), whatever was sent.
  expect(contract.slice(0, 20), `seed ${SEED}: ${contract.length} answers outside the OpenAPI document`).toEqual([]);
  expect(stored).toEqual({
    paymentInvoices: created.paymentInvoices.size,
    payoutInvoices: created.payoutInvoices.size,
    connections: created.connections.size - deletedConnections.size,
  });
});

test("ids the generators found a 500 with answer a JSON:API 404", async () => {
  // DELETE /api/connections/%00 reached the database with a NUL byte and answered 500 (found by the
  // test above); so did GET /api/risk/blocklist/x%00.
  for (const [method, path] of [
    ["DELETE", "/api/connections/%00"],
    ["DELETE", `/api/connections/${realIds["/api/connections/{id}"]![0]}%00`],
    ["GET", "/api/connections/%00"],
    ["PATCH", "/api/connections/%00"],
    ["GET", "/api/risk/blocklist/x%00"],
    ["DELETE", "/api/risk/blocklist/bl_x%00"],
  ] as const) {
    const answer = await send(
      ORIGIN,
      {
        method,
        path,
        headers: { authorization: `Bearer ${apiKeys[0]}`, "content-type": "application/vnd.api+json" },
        body: method === "PATCH" ? "{}" : undefined,
      },
      TIMEOUT_MS,
    );
    expect("status" in answer && answer.status, `${method} ${path}`).toBe(404);
    expect(judge({ method, path, headers: {} }, answer, true)).toEqual([]);
  }
});

test("the hosted page answers random and malformed invoice ids with 200 or 4xx, never a 5xx or a hang", async () => {
  test.setTimeout(120_000);
  const pageArb = fc
    .record({
      id: pathIdArb(hostedIds),
      query: fc.oneof(fc.constant(""), queryArb(["id", "lang", "next"])),
      headers: headersArb(["x"]),
      method: fc.constantFrom("GET", "GET", "GET", "HEAD"),
    })
    .map(({ id, query, headers, method }): BadRequest => ({
      method,
      path: `/pay/${id}${query}`,
      headers: {
        accept: "text/html",
        ...(headers["x-forwarded-for"] ? { "x-forwarded-for": headers["x-forwarded-for"] } : {}),
        ...(headers["accept"] ? { accept: headers["accept"] } : {}),
      },
    }));
  let tried = 0;
  let fiveHundreds = 0;
  const statuses: Record<string, number> = {};
  const findings: Finding[] = [];
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(fc.array(pageArb, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (batch) => {
      await inPool(batch, CONCURRENCY, async (request) => {
        const answer = await send(ORIGIN, request, TIMEOUT_MS);
        tried++;
        if ("status" in answer) {
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (answer.status >= 500) fiveHundreds++;
        }
        for (const problem of judge(request, answer, false)) findings.push({ request: describeRequest(request), problem });
      });
    }),
    { numRuns: PAGE_RUNS, seed: SEED, endOnFailure: true },
  );
  report("http-hosted-page", { seed: SEED, tried, fiveHundreds, seconds: (Date.now() - started) / 1000, statuses, findings: findings.length });
  expect(tried).toBe(PAGE_RUNS * CONCURRENCY);
  expect(findings.slice(0, 20), `seed ${SEED}`).toEqual([]);
  // The real invoice's page still opens: the flood changed nothing.
  const real = await send(ORIGIN, { method: "GET", path: `/pay/${rawComponent(hostedIds[1]!)}`, headers: {} }, TIMEOUT_MS);
  expect("status" in real && real.status).toBe(200);
});

/*
 * The public entry points outside the OpenAPI document: the hosted page's Pay (`POST /pay/{id}/pay`),
 * its status poll and 3-D Secure return, and the providers' callbacks. They share one limit per
 * client address (100 a second, lib/api/rate-limit.ts), and every spec's requests come from
 * 127.0.0.1, so these tests pace themselves below it: a flood above it would answer the other
 * worker's hosted-page and callback specs 429.
 */
const PAY_RUNS = 80; // × (13 Pays + 3 of the page's other routes) per run
const PAYS_PER_RUN = 13;
const PAY_POOL = 40; // hosted invoices that get every kind of Pay: the first card that passes the checks ends most of them (the sandboxes decline it)
const LIMIT_POOL = 10; // hosted invoices that get only cards the checks refuse, so they stay payable and meet the 10 Pays per 15 minutes (lib/pay/pay-limit.ts)
const CALLBACK_RUNS = 66; // × 16 callbacks per run
const PUBLIC_PER_SECOND = 60;
const LIMITED = /Too many payment tries/;
const MAX_PAY_BODY = 8 * 1024;
const MAX_CALLBACK_BODY = 65_536;
const CARD_FIELDS = ["number", "expiry", "cvc", "holder"] as const;
/** Callback refusals are about the notification as a whole: there is no member of ours to point at. */
const CALLBACK_CODES: ReadonlySet<string> = new Set([
  ...DOCUMENT_LEVEL_CODES,
  "malformed_callback",
  "callback_not_verified",
  "not_found",
  "payload_too_large",
  "rate_limited",
]);

/** The decoded path segment, or undefined when it is not one (a malformed escape). */
function segment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Whether a path of these raw segments is routed as written: no `.` or `..` segment (resolved first), no empty one, no escape Next cannot decode. */
function routedAsWritten(rawSegments: string[]): boolean {
  // An empty segment (`/pay//pay`) is answered 308 to the path without it.
  return rawSegments.every((raw) => raw !== "" && !raw.includes("/") && segment(raw) !== undefined && !/^\.\.?$/.test(segment(raw)!));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isJsonType = (type: string | null) => /^application\/(json|[^;\s]*\+json)\s*(;|$)/i.test(type ?? "");

/** Every payment and payout invoice of the merchant with its status. */
async function invoiceStatuses(): Promise<Record<string, string>> {
  const statuses: Record<string, string> = {};
  for (const list of ["/api/commerce/payment-invoices", "/api/commerce/payout-invoices"]) {
    let next: string | null = `${list}?page[size]=100`;
    while (next) {
      const { status, json } = await api("GET", next.replace(ORIGIN, ""));
      expect(status).toBe(200);
      for (const invoice of json.data as { id: string; attributes: { status: string } }[]) statuses[invoice.id] = invoice.attributes.status;
      next = (json.links?.next as string | null | undefined) ?? null;
    }
  }
  return statuses;
}

/** A hosted invoice as its merchant sees it through the API: its status and how many attempts reached a provider. */
async function invoiceState(id: string): Promise<{ status: string; attempts: number }> {
  const invoice = await api("GET", `/api/commerce/payment-invoices/${id}`);
  const attempts = await api("GET", `/api/commerce/payment-invoices/${id}/attempts`);
  expect([invoice.status, attempts.status]).toEqual([200, 200]);
  return { status: invoice.json.data.attributes.status as string, attempts: (attempts.json.data as unknown[]).length };
}

async function createConnection(slug: string, kind: ConnectionKind, credentials: Record<string, unknown>): Promise<string> {
  const created = await api("POST", "/api/connections", {
    data: { type: "connection", attributes: { provider: slug, kind, label: `Bad input ${slug} ${randomBytes(3).toString("hex")}`, mode: "test", credentials } },
  });
  expect(created.status, `${slug} ${kind}`).toBe(201);
  return created.json.data.id as string;
}

type PayCase = BadRequest & { route: "pay" | "status" | "return"; rawId: string; contentType?: string; origin?: string };

/** The card as the Pay route reads it (app/(public)/pay/[id]/pay/route.ts): the four fields of a JSON object or a form, or undefined when the body is no card form at all. */
function cardAsSent(body: string | undefined, form: boolean): Record<string, unknown> | undefined {
  // As the server decodes it: lone surrogates become U+FFFD in UTF-8, and a leading BOM is dropped.
  let text = Buffer.from(body ?? "", "utf8").toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length > MAX_PAY_BODY) return undefined;
  const sent = form ? Object.fromEntries(new URLSearchParams(text)) : parseJson(text);
  if (typeof sent !== "object" || sent === null || Array.isArray(sent)) return undefined;
  const card: Record<string, unknown> = {};
  for (const name of CARD_FIELDS) if (Object.hasOwn(sent, name)) card[name] = (sent as Record<string, unknown>)[name];
  return card;
}

/** The fields a customer would be told are wrong: the page's own checks (lib/pay/card-checks.ts), which the server's schema is built from. */
function expectedFieldErrors(card: Record<string, unknown>, takesCvc: boolean): string[] {
  const fields = Object.keys(cardFieldErrors(card, { takesCvc }));
  // Without a CVC field, a CVC that is sent must still be text.
  if (!takesCvc && card.cvc !== undefined && typeof card.cvc !== "string") fields.push("cvc");
  return fields.sort();
}

/** The fields a refused form page marks invalid (lib/pay/page/render.ts: aria-invalid on the input). */
function invalidInputs(html: string): string[] {
  return [...html.matchAll(/<input [^>]*name="(number|expiry|cvc|holder)"[^>]*aria-invalid="true"/g)].map((match) => match[1]!).sort();
}

type PayVerdict = { problems: string[]; outcome: string; acceptedFor?: string };

/**
 * What the Pay route must answer, in the order it checks (app/(public)/pay/[id]/pay/route.ts):
 * the per-address limit (429, JSON:API), the media type (415), a cross-site Origin (403), an
 * unreadable body (400), text that cannot be stored (a field error), an unknown invoice (404), the
 * per-invoice limit, the card's field errors, and only then a payment. JSON in, JSON out; a form
 * gets the page (422 naming the wrong fields) or is sent on (303).
 */
function judgePay(request: PayCase, answer: BadAnswer, pool: Map<string, { takesCvc: boolean }>): PayVerdict {
  const problems = judge(request, answer, false);
  if (!("status" in answer)) return { problems, outcome: "no answer" };
  if (answer.status === 429) return { problems: [...problems, ...judge(request, answer, true)], outcome: "429" };
  const id = segment(request.rawId);
  if (request.method !== "POST" || !routedAsWritten([request.rawId]) || id === undefined) return { problems, outcome: `other ${answer.status}` };
  const type = (request.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const form = type === "application/x-www-form-urlencoded";
  const json = type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
  const body = answer.headers.get("content-type")?.startsWith("application/json")
    ? (parseJson(answer.text) as { ok?: unknown; fieldErrors?: Record<string, string>; message?: unknown; invoice?: { canPay?: unknown } } | undefined)
    : undefined;
  const want = (status: number, outcome: string, extra: string[] = []): PayVerdict => ({
    problems: [
      ...problems,
      ...(answer.status === status ? [] : [`expected ${status} (${outcome}), got ${answer.status}: ${answer.text.slice(0, 200)}`]),
      ...extra,
    ],
    outcome,
  });
  const jsonRefusal = () =>
    body?.ok === false && typeof body.message === "string" ? [] : [`not a JSON refusal: ${answer.headers.get("content-type")} ${answer.text.slice(0, 200)}`];

  // A multipart POST outside /api/ is read by server.ts first (server/form-post-guard.ts: Next would answer a malformed one 500): 400 for a malformed body, else the route's 415.
  if (/^\s*multipart\/form-data/i.test(request.contentType ?? "") && answer.status === 400)
    return {
      problems: [...problems, ...(/not valid multipart/.test(answer.text) ? [] : [`multipart 400: ${answer.text.slice(0, 200)}`])],
      outcome: "400 malformed multipart",
    };
  if (!form && !json) return want(415, "415 media type", jsonRefusal());
  let crossSite = false;
  if (request.origin !== undefined) {
    try {
      // Host is this server's: X-Forwarded-Host is dropped without trusted proxies (server.ts), so a forged one changes nothing.
      crossSite = new URL(request.origin).host !== new URL(ORIGIN).host;
    } catch {
      crossSite = true;
    }
  }
  if (crossSite) return want(403, "403 cross-site", jsonRefusal());
  const card = cardAsSent(request.body, form);
  if (!card) return want(400, "400 unreadable", jsonRefusal());
  const unsafe = findUnsafeText(card);
  const known = pool.get(id);

  if (json) {
    if (!body)
      return {
        problems: [...problems, `JSON request, ${answer.status} ${answer.headers.get("content-type")} answer: ${answer.text.slice(0, 200)}`],
        outcome: "not JSON",
      };
    if (unsafe)
      return want(
        200,
        "field error (unsafe text)",
        body.ok === false && JSON.stringify(Object.keys(body.fieldErrors ?? {})) === JSON.stringify([unsafe.join(".")])
          ? []
          : [`expected a field error at ${unsafe.join(".")}: ${answer.text.slice(0, 200)}`],
      );
    if (!known) return want(404, "404 unknown invoice", jsonRefusal());
    if (answer.status !== 200)
      return { problems: [...problems, `expected 200 for a card form, got ${answer.status}: ${answer.text.slice(0, 200)}`], outcome: `card ${answer.status}` };
    const expected = expectedFieldErrors(card, known.takesCvc);
    if (body.ok === true) {
      // A card the checks refuse is never charged: the only success it can get is an invoice that can no longer be paid, shown as it stands.
      const charged = expected.length > 0 && body.invoice?.canPay !== false;
      return {
        problems: [...problems, ...(charged ? [`card with wrong ${expected.join(", ")} accepted: ${answer.text.slice(0, 200)}`] : [])],
        outcome: "accepted",
        acceptedFor: id,
      };
    }
    if (body.ok !== false) return { problems: [...problems, `neither ok nor refused: ${answer.text.slice(0, 200)}`], outcome: "odd" };
    if (typeof body.message === "string" && LIMITED.test(body.message)) return { problems, outcome: "limited" };
    const named = Object.keys(body.fieldErrors ?? {}).sort();
    if (expected.length > 0)
      return {
        problems: [
          ...problems,
          ...(JSON.stringify(named) === JSON.stringify(expected)
            ? []
            : [`fields ${expected.join(", ")} are wrong, the answer names ${named.join(", ") || "none"}: ${answer.text.slice(0, 200)}`]),
        ],
        outcome: "field errors",
      };
    // Every field passed the checks: a provider refusal, or another Pay on this invoice in progress, said in the message.
    return {
      problems: [
        ...problems,
        ...(named.length === 0 && typeof body.message === "string" && body.message
          ? []
          : [`valid card refused without a message: ${answer.text.slice(0, 200)}`]),
      ],
      outcome: "refused",
    };
  }

  // A form post without the page's script.
  if (unsafe && !known) return want(404, "404 unknown invoice");
  if (unsafe) {
    // Unsafe text is refused before the invoice is read: an invoice that can no longer be paid is shown without its form, so nothing is marked.
    const marked = invalidInputs(answer.text);
    const fine = !answer.text.includes('data-testid="card-form"') || JSON.stringify(marked) === JSON.stringify([String(unsafe[0])]);
    return want(422, "field error (unsafe text)", fine ? [] : [`expected ${String(unsafe[0])} marked invalid, the page marks ${marked.join(", ") || "none"}`]);
  }
  if (!known) return want(404, "404 unknown invoice");
  if (answer.status === 303) {
    const location = answer.headers.get("location") ?? "";
    // Back to the page (a relative address, never another host) or on to 3-D Secure.
    const fine = location === `/pay/${encodeURIComponent(id)}` || /^https?:\/\//.test(location);
    return { problems: [...problems, ...(fine ? [] : [`303 to ${location}`])], outcome: "accepted", acceptedFor: id };
  }
  if (answer.status === 200) return { problems, outcome: "accepted", acceptedFor: id };
  if (answer.status !== 422)
    return {
      problems: [...problems, `expected 200, 303 or 422 for a card form, got ${answer.status}: ${answer.text.slice(0, 200)}`],
      outcome: `card ${answer.status}`,
    };
  if (LIMITED.test(answer.text)) return { problems, outcome: "limited" };
  const expected = expectedFieldErrors(card, known.takesCvc).filter((name) => name !== "cvc" || known.takesCvc);
  const marked = invalidInputs(answer.text);
  return {
    problems: [
      ...problems,
      ...(JSON.stringify(marked) === JSON.stringify(expected)
        ? []
        : [`fields ${expected.join(", ") || "none"} are wrong, the page marks ${marked.join(", ") || "none"}`]),
    ],
    outcome: expected.length ? "field errors" : "refused",
  };
}

/** The page's status poll (JSON, 200 or 404) and its 3-D Secure return (303 to the page, or 404). */
function judgePageRoute(request: PayCase, answer: BadAnswer, pool: Map<string, unknown>): PayVerdict {
  const problems = judge(request, answer, false);
  if (!("status" in answer)) return { problems, outcome: "no answer" };
  if (answer.status === 429) return { problems: [...problems, ...judge(request, answer, true)], outcome: "429" };
  const id = segment(request.rawId);
  if (!routedAsWritten([request.rawId]) || id === undefined) return { problems, outcome: `other ${answer.status}` };
  const known = pool.has(id);
  if (request.route === "status") {
    const body = parseJson(answer.text) as { invoice?: { id?: unknown } } | undefined;
    const fine = known ? answer.status === 200 && body?.invoice?.id === id : answer.status === 404 && isJsonType(answer.headers.get("content-type"));
    return {
      problems: [...problems, ...(fine ? [] : [`status of ${known ? "a pool" : "an unknown"} invoice: ${answer.status} ${answer.text.slice(0, 200)}`])],
      outcome: `status ${answer.status}`,
    };
  }
  const fine = known ? answer.status === 303 && answer.headers.get("location") === `/pay/${id}` : answer.status === 404;
  return {
    problems: [...problems, ...(fine ? [] : [`return of ${known ? "a pool" : "an unknown"} invoice: ${answer.status} ${answer.headers.get("location")}`])],
    outcome: `return ${answer.status}`,
  };
}

test("the hosted page's Pay answers generated card forms, bodies, media types, origins and ids without a 5xx or a hang, and only an accepted Pay changes an invoice", async () => {
  test.setTimeout(150_000);
  // A connection of this test's own (the API fuzz above may have renamed or deleted the setup's), and a pool of open hosted invoices.
  await createConnection("provider-f", "h2h", sampleCredentials("provider-f", "h2h", "test"));
  const poolIds: string[] = [];
  await inPool(
    Array.from({ length: PAY_POOL + LIMIT_POOL }, (_, index) => index),
    8,
    async (index) => {
      const created = await api("POST", "/api/commerce/payment-invoices", {
        data: {
          type: "payment-invoice",
          attributes: {
            service: "payment_card_eur_hpp",
            commerce_account: commerceAccount,
            currency: "EUR",
            amount: "12.50",
            reference_id: `bad-pay-${index}-${randomBytes(6).toString("hex")}`,
            flow: "charge",
            test_mode: true,
          },
        },
      });
      expect(created.status).toBe(201);
      poolIds.push(created.json.data.id as string);
    },
  );
  const pace = pacer(PUBLIC_PER_SECOND);
  const pool = new Map<string, { takesCvc: boolean }>();
  const before = new Map<string, { status: string; attempts: number }>();
  await inPool(poolIds, 8, async (id) => {
    await pace();
    const view = await send(ORIGIN, { method: "GET", path: `/pay/${id}/status`, headers: {} }, TIMEOUT_MS);
    expect("status" in view && view.status, id).toBe(200);
    const invoice = (JSON.parse((view as { text: string }).text) as { invoice: { takesCvc: boolean; canPay: boolean } }).invoice;
    expect(invoice.canPay).toBe(true);
    pool.set(id, { takesCvc: invoice.takesCvc });
    before.set(id, await invoiceState(id));
  });

  const [payableIds, limitIds] = [poolIds.slice(0, PAY_POOL), poolIds.slice(PAY_POOL)];
  const idArb = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...payableIds) }, { weight: 2, arbitrary: pathIdArb(payableIds) });
  /** A card form the checks refuse, sent so that it reaches them (the right type, no other site's Origin). */
  const refusedCard = (payload: { contentType: string | undefined; body: string | undefined }) => {
    const type = (payload.contentType ?? "").split(";")[0]!.trim().toLowerCase();
    const card = cardAsSent(payload.body, type === "application/x-www-form-urlencoded");
    return (
      (type === "application/json" || type === "application/x-www-form-urlencoded") &&
      card !== undefined &&
      !findUnsafeText(card) &&
      expectedFieldErrors(card, true).length > 0
    );
  };
  const target = fc.oneof(
    { weight: 7, arbitrary: fc.record({ rawId: idArb, payload: payBodyArb() }) },
    { weight: 2, arbitrary: fc.record({ rawId: fc.constantFrom(...limitIds), payload: payBodyArb().filter(refusedCard) }) },
  );
  const payArb = fc
    .record({
      target,
      origin: originArb(ORIGIN),
      method: fc.constantFrom("POST", "POST", "POST", "POST", "POST", "POST", "POST", "POST", "POST", "POST", "POST", "POST", "GET", "PUT", "DELETE"),
      accept: fc.option(fc.constantFrom("application/json", "text/html", "*/*", "application/vnd.api+json", ""), { nil: undefined }),
      forwarded: fc.option(
        fc.record({ "x-forwarded-host": fc.constantFrom("evil.example", "127.0.0.1:1"), "x-forwarded-for": fc.constantFrom("1.2.3.4", "evil, 127.0.0.1") }),
        { nil: undefined },
      ),
    })
    .map(({ target: { rawId, payload }, origin, method, accept, forwarded }): PayCase => {
      const headers: Record<string, string> = { ...(forwarded ?? {}) };
      if (payload.contentType !== undefined) headers["content-type"] = payload.contentType;
      if (origin !== undefined) headers.origin = origin;
      if (accept !== undefined) headers.accept = accept;
      return { route: "pay", rawId, method, path: `/pay/${rawId}/pay`, headers, body: payload.body, contentType: payload.contentType, origin };
    });
  const pageArb = fc
    .record({
      rawId: idArb,
      route: fc.constantFrom("status" as const, "return" as const),
      query: fc.oneof(fc.constant(""), queryArb(["id", "lang"])),
      junk: fc.option(fc.string({ maxLength: 20 }).map(headerValue), { nil: undefined }),
    })
    .map(({ rawId, route, query, junk }): PayCase => ({
      route,
      rawId,
      method: "GET",
      path: `/pay/${rawId}/${route}${query}`,
      headers: junk === undefined ? {} : { accept: junk, "if-none-match": junk },
    }));

  let tried = 0;
  let pays = 0;
  let fiveHundreds = 0;
  const statuses: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  const accepted = new Map<string, number>();
  const findings: Finding[] = [];
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(
      fc.tuple(
        fc.array(payArb, { minLength: PAYS_PER_RUN, maxLength: PAYS_PER_RUN }),
        fc.array(pageArb, { minLength: CONCURRENCY - PAYS_PER_RUN, maxLength: CONCURRENCY - PAYS_PER_RUN }),
      ),
      async ([payBatch, pageBatch]) => {
        await inPool([...payBatch, ...pageBatch], CONCURRENCY, async (request) => {
          await pace();
          const answer = await send(ORIGIN, request, TIMEOUT_MS);
          tried++;
          if (request.route === "pay") pays++;
          if ("status" in answer) {
            statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
            if (answer.status >= 500) fiveHundreds++;
          }
          const verdict = request.route === "pay" ? judgePay(request, answer, pool) : judgePageRoute(request, answer, pool);
          outcomes[`${request.route}: ${verdict.outcome}`] = (outcomes[`${request.route}: ${verdict.outcome}`] ?? 0) + 1;
          if (verdict.acceptedFor) accepted.set(verdict.acceptedFor, (accepted.get(verdict.acceptedFor) ?? 0) + 1);
          for (const problem of verdict.problems) findings.push({ request: describeRequest(request), problem });
        });
      },
    ),
    { numRuns: PAY_RUNS, seed: SEED, endOnFailure: true },
  );
  const seconds = (Date.now() - started) / 1000;

  // Nothing changed for a refused Pay: an invoice none of whose Pays was accepted kept its status, and no attempt reached a provider.
  const unchanged: string[] = [];
  const changed: Record<string, number> = {};
  await inPool(poolIds, 8, async (id) => {
    const now = await invoiceState(id);
    const was = before.get(id)!;
    if (now.status !== was.status || now.attempts !== was.attempts) changed[`${was.status}→${now.status}`] = (changed[`${was.status}→${now.status}`] ?? 0) + 1;
    if (!accepted.has(id) && (now.status !== was.status || now.attempts !== was.attempts))
      unchanged.push(`${id}: ${was.status}→${now.status}, ${was.attempts}→${now.attempts} attempts, no Pay accepted`);
  });
  report("http-hosted-pay", {
    seed: SEED,
    tried,
    pays,
    fiveHundreds,
    hangsOrResets: findings.filter((f) => /no answer|ended/.test(f.problem)).length,
    seconds,
    statuses,
    outcomes,
    invoices: PAY_POOL + LIMIT_POOL,
    invoicesWithAcceptedPays: accepted.size,
    invoicesChanged: changed,
    changedWithoutAcceptedPay: unchanged,
    findings: findings.length,
    firstFindings: findings.slice(0, 300),
  });
  expect(tried).toBe(PAY_RUNS * CONCURRENCY);
  expect(pays).toBe(PAY_RUNS * PAYS_PER_RUN);
  expect(findings.slice(0, 20), `seed ${SEED}: ${findings.length} findings`).toEqual([]);
  expect(unchanged).toEqual([]);
  // The generated Pays reached every stage: field errors, the per-invoice limit and a provider.
  expect(outcomes["pay: field errors"] ?? 0).toBeGreaterThan(0);
  expect(outcomes["pay: limited"] ?? 0).toBeGreaterThan(0);
  expect(accepted.size).toBeGreaterThan(0);
  // The invoices that only ever got refused cards took no payment and are still open.
  expect(limitIds.filter((id) => accepted.has(id))).toEqual([]);
});

test("provider callbacks answer forged, tampered, stale, garbage and correctly signed but unmatched notifications with a 4xx JSON:API error, never a 5xx or a hang, and change no invoice", async () => {
  test.setTimeout(120_000);
  const kinds: Record<string, ConnectionKind> = {
    "provider-a": "h2h",
    "provider-b": "h2h",
    "provider-c": "provider_account",
    "provider-d": "h2h",
    "provider-e": "h2h",
    "provider-f": "h2h",
  };
  const targets: { slug: string; id: string; secret: string | undefined }[] = [];
  for (const slug of CALLBACK_SLUGS) {
    const credentials = sampleCredentials(slug, kinds[slug]!, "test");
    const secret = slug === "provider-c" ? credentials.shop_password : credentials.secret_key;
    targets.push({ slug, id: await createConnection(slug, kinds[slug]!, credentials), secret: typeof secret === "string" ? secret : undefined });
  }
  const ids = targets.map((target) => target.id);
  const before = await invoiceStatuses();

  const rightTarget = fc.constantFrom(...targets).chain((target) => callbackCaseArb(target.slug, target.id, target.secret));
  const caseArb = fc.oneof(
    { weight: 10, arbitrary: rightTarget },
    // Another provider's connection id under this slug.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...targets), fc.constantFrom(...targets))
        .filter(([a, b]) => a.slug !== b.slug)
        .chain(([a, b]) => callbackCaseArb(a.slug, b.id, a.secret)),
    },
    // Slugs of no provider, and near misses.
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...targets),
          fc.oneof(pathIdArb([...CALLBACK_SLUGS]), fc.constantFrom("provider-g", "Provider-F", "provider-f ", "provider-%66", "provider_f", "PROVIDER-B")),
        )
        .chain(([target, slug]) => callbackCaseArb(slug, target.id, target.secret)),
    },
    // Random and malformed connection ids.
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...targets), pathIdArb(ids)).chain(([target, id]) => callbackCaseArb(target.slug, id, target.secret)) },
  );
  const requestArb = fc
    .record({
      callback: caseArb,
      method: fc.constantFrom(
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "POST",
        "GET",
        "PUT",
      ),
      query: fc.oneof({ weight: 6, arbitrary: fc.constant("") }, { weight: 1, arbitrary: queryArb([]) }),
    })
    .map(({ callback, method, query }): BadRequest & { callback: CallbackCase } => ({
      method,
      path: `/api/callbacks/${callback.slug}/${callback.connectionId}${query}`,
      headers: callback.headers,
      body: callback.body,
      callback,
    }));

  const expectedStatus = (request: BadRequest & { callback: CallbackCase }): number[] | undefined => {
    const { callback } = request;
    // A head over Node's 16 KiB never reaches a route (431); near it, the client's own headers (Host, length) decide.
    const head = Buffer.byteLength(
      `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(request.headers ?? {})
        .map(([name, value]) => `${name}: ${String(value)}\r\n`)
        .join("")}`,
      "latin1",
    );
    if (head > 16 * 1024) return [431];
    const nearLimit = head > 16 * 1024 - 512 ? [431] : [];
    if (request.method !== "POST" || !routedAsWritten([callback.slug, callback.connectionId])) return undefined;
    const slug = segment(callback.slug)!;
    const connectionId = segment(callback.connectionId)!;
    // The connection is looked up before the body is measured or verified (lib/callbacks/receive.ts).
    if (!targets.some((target) => target.slug === slug && target.id === connectionId)) return [404, ...nearLimit];
    if (Buffer.byteLength(callback.body ?? "", "utf8") > MAX_CALLBACK_BODY) return [413, ...nearLimit];
    // Verified, then read: not a notification of this provider (400), or one about no attempt of this connection (404).
    if (callback.signed) return [400, 404, ...nearLimit];
    return [401, ...nearLimit];
  };

  let tried = 0;
  let fiveHundreds = 0;
  let signed = 0;
  const statuses: Record<string, number> = {};
  const byKind: Record<string, Record<string, number>> = {};
  const findings: Finding[] = [];
  const pace = pacer(PUBLIC_PER_SECOND);
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(fc.array(requestArb, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (batch) => {
      await inPool(batch, CONCURRENCY, async (request) => {
        await pace();
        const answer = await send(ORIGIN, request, TIMEOUT_MS);
        tried++;
        if (request.callback.signed) signed++;
        const expected = expectedStatus(request);
        const problems = judge(request, answer, expected !== undefined, CALLBACK_CODES);
        if ("status" in answer) {
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          const kind = (byKind[request.callback.how] ??= {});
          kind[answer.status] = (kind[answer.status] ?? 0) + 1;
          if (answer.status >= 500) fiveHundreds++;
          if (expected && answer.status < 400)
            problems.push(`a callback no provider signed, or about no attempt, was answered ${answer.status}: ${answer.text.slice(0, 200)}`);
          if (expected && answer.status !== 429 && !expected.includes(answer.status))
            problems.push(
              `expected ${expected.join(" or ")} (${request.callback.how}${request.callback.signed ? ", signed" : ""}), got ${answer.status}: ${answer.text.slice(0, 300)}`,
            );
        }
        for (const problem of problems) {
          findings.push({ request: `${request.callback.how}${request.callback.signed ? " (signed)" : ""}: ${describeRequest(request)}`, problem });
        }
      });
    }),
    { numRuns: CALLBACK_RUNS, seed: SEED, endOnFailure: true },
  );
  const seconds = (Date.now() - started) / 1000;

  // No invoice of the merchant changed status: a refused callback changes nothing, and none matched an attempt.
  const after = await invoiceStatuses();
  const changedInvoices = Object.entries(before)
    .filter(([id, status]) => after[id] !== status)
    .map(([id, status]) => `${id}: ${status}→${after[id]}`);
  report("http-callbacks", {
    seed: SEED,
    tried,
    signed,
    fiveHundreds,
    hangsOrResets: findings.filter((f) => /no answer|ended/.test(f.problem)).length,
    seconds,
    statuses,
    byKind,
    invoices: Object.keys(before).length,
    changedInvoices,
    findings: findings.length,
    firstFindings: findings.slice(0, 300),
  });
  expect(tried).toBe(CALLBACK_RUNS * CONCURRENCY);
  expect(findings.slice(0, 20), `seed ${SEED}: ${findings.length} findings`).toEqual([]);
  expect(changedInvoices).toEqual([]);
  // Correctly signed ones got past the signature to the parser (400) and the attempt lookup (404), not only forged ones to 401.
  expect(statuses[400] ?? 0).toBeGreaterThan(0);
  expect(statuses[401] ?? 0).toBeGreaterThan(0);
  expect(statuses[404] ?? 0).toBeGreaterThan(0);
});

test("a callback to a connection id holding a NUL byte answers a JSON:API 404, not a 503", async () => {
  // Found by the test above: the id reached the connection lookup, PostgreSQL refused the NUL (22021),
  // and the route's catch-all answered 503 "send it again", so a provider would retry it forever.
  for (const id of ["%00", "conn_x%00", `${realIds["/api/connections/{id}"]![0]}%00`]) {
    const request: BadRequest = {
      method: "POST",
      path: `/api/callbacks/provider-f/${id}`,
      headers: {
        "content-type": "application/json",
        "x-event-id": "ntf_nul",
        "x-event-timestamp": String(Math.floor(Date.now() / 1000)),
        "x-event-signature": `sha256=${"0".repeat(64)}`,
      },
      body: "{}",
    };
    const answer = await send(ORIGIN, request, TIMEOUT_MS);
    expect("status" in answer && answer.status, id).toBe(404);
    expect(judge(request, answer, true, CALLBACK_CODES)).toEqual([]);
  }
});

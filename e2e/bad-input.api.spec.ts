import fs from "node:fs";
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { expect, test } from "@playwright/test";
import { apiResponseProblems } from "../tests/helpers/api-validator";
import { createApiKey, signUp } from "./support/accounts";
import { fKeys } from "./support/connections";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { bodyArb, headersArb, inPool, pathIdArb, queryArb, rawComponent, send, type BadAnswer, type BadRequest } from "./support/bad-input";

/**
 * Issue 13 suite 5, "Bad input", over real HTTP against the server as run (server.ts): every
 * operation of the OpenAPI document (the invoice API and the management API) and the hosted page
 * get generated bodies, headers, query strings and path ids. Whatever comes in: never a 5xx, never
 * a hang, every refusal a JSON:API error document (each error with its status; a 400/422 about a
 * field names it in source.pointer or source.parameter), and a refused create stores nothing.
 */

const PORT = Number(process.env.E2E_PORT ?? 3107);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CONCURRENCY = 16;
const TIMEOUT_MS = 15_000;
const API_RUNS = 560; // × 16 requests per run
const PAGE_RUNS = 80; // × 16 requests per run
const SEED = Number(process.env.BAD_INPUT_SEED ?? Date.now() % 2 ** 31);
/** 400s about the document as a whole (not JSON, wrong media type, too deep): no member to point at. */
const DOCUMENT_LEVEL_CODES = new Set(["malformed_path", "invalid_json", "malformed_json", "bad_request", "invalid_body", "body_too_deep", "invalid_document"]);

type Operation = { method: string; template: string; query: string[]; body: boolean };
type Json = NonNullable<Parameters<typeof bodyArb>[0]>;

const apiKeys: string[] = [];
const operations: Operation[] = [];
const validBodies = new Map<string, Json>();
const realIds: Record<string, string[]> = {};
let hostedIds: string[] = [];
/** The setup invoices' references: each generated body gets a fresh one, so a near-valid create is not refused only as a duplicate. */
const setupReferences: string[] = [];
let referenceCounter = 0;

test.describe.configure({ mode: "serial" });

// Setup reads a few members of known documents; typing each would add nothing the assertions do not check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const answer = await send(ORIGIN, { method, path, headers: { authorization: `Bearer ${apiKeys[0]}`, "content-type": "application/vnd.api+json" }, body: body === undefined ? undefined : JSON.stringify(body) }, TIMEOUT_MS);
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
    connections: ((await api("GET", "/api/connections")).json.data as unknown[]).length,
  };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = await signUp(page);
  // Three keys: 10,000 requests in about a minute is more than one key's 100 per second.
  for (const name of ["bad-input-1", "bad-input-2", "bad-input-3"]) apiKeys.push(await createApiKey(page, name));
  await context.close();

  const keys = fKeys("dev");
  const connection = { data: { type: "connection", attributes: { provider: "provider-f", kind: "h2h", label: "Bad input F", credentials: { public_key: keys.publicKey, secret_key: keys.secretKey, test_mode: true, currency: "EUR" } } } };
  const createdConnection = await api("POST", "/api/connections", connection);
  expect(createdConnection.status).toBe(201);
  const connectionId = createdConnection.json.data.id as string;

  const payment = { data: { type: "payment-invoice", attributes: { service: "payment_card_eur_hpp", commerce_account: account.commerceAccount, currency: "EUR", amount: "12.50", reference_id: `bad-${randomBytes(6).toString("hex")}`, flow: "charge", test_mode: true, options: { allow_partially: false } } } };
  const createdPayment = await api("POST", "/api/commerce/payment-invoices", payment);
  expect(createdPayment.status).toBe(201);
  const payout = { data: { type: "payout-invoice", attributes: { commerce_account: account.commerceAccount, reference_id: `bad-po-${randomBytes(6).toString("hex")}`, service: "payment_card_uah", currency: "UAH", amount: "250.75", test_mode: true, fields: { card_number: "4242424242424242" }, options: { auto_process: false }, customer: { reference_id: "cust-1", name: "Taras Shevchenko", address: { country: "UA", city: "Kyiv", street: "Khreshchatyk St 22" } } } } };
  // Payouts in UAH need a connection that pays out (Provider A here).
  const payoutConnection = await api("POST", "/api/connections", { data: { type: "connection", attributes: { provider: "provider-a", kind: "h2h", label: "Bad input A", mode: "test", credentials: sampleCredentials("provider-a", "h2h", "test") } } });
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
  validBodies.set("POST /api/commerce/payout-invoices/{id}/process", { data: { type: "payout-invoice", id: createdPayout.json.data.id } });
  realIds["/api/connections/{id}"] = [connectionId];
  realIds["/api/routing/{id}"] = [order.id];
  realIds["/api/commerce/payment-invoices"] = [createdPayment.json.data.id];
  realIds["/api/commerce/payout-invoices"] = [createdPayout.json.data.id];
  hostedIds = [createdPayment.json.data.id, String(createdPayment.json.data.attributes.hpp_url).split("/pay/")[1]!];

  const openapi = await send(ORIGIN, { method: "GET", path: "/api/commerce/openapi.json", headers: {} }, TIMEOUT_MS);
  if (!("status" in openapi)) throw new Error("no OpenAPI document");
  const document = JSON.parse(openapi.text) as { paths: Record<string, Record<string, { parameters?: { name?: string; in?: string }[]; requestBody?: unknown }>> };
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
  const key = Object.keys(realIds).find((prefix) => template.startsWith(prefix));
  return key ? realIds[key]! : ["x"];
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
  return operations.some((op) => new RegExp(`^${op.template.replace("{id}", "[^/]+")}$`).test(pathname));
}

/** What every answer must be; returns the problems with this one. */
function judge(request: BadRequest, answer: BadAnswer, jsonApi: boolean): string[] {
  if ("hang" in answer) return [`no answer within ${TIMEOUT_MS} ms`];
  if ("reset" in answer) return [`connection ended without an answer: ${answer.reset}`];
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`${answer.status}: ${answer.text.slice(0, 300)}`);
  // 431: Node's HTTP parser refuses a header section over 16 KiB before any of the app's code runs.
  if (!jsonApi || answer.status < 400 || answer.status === 431 || request.method === "HEAD") return problems;
  if (answer.headers.get("content-type") !== "application/vnd.api+json") problems.push(`${answer.status} with Content-Type ${answer.headers.get("content-type")}`);
  let document: { errors?: { status?: unknown; code?: string; source?: { pointer?: unknown; parameter?: unknown } }[] };
  try {
    document = JSON.parse(answer.text);
  } catch {
    return [...problems, `${answer.status} body is not JSON: ${answer.text.slice(0, 200)}`];
  }
  if (!Array.isArray(document.errors) || document.errors.length === 0) return [...problems, `${answer.status} without an errors array`];
  for (const error of document.errors) {
    if (typeof error.status !== "string" || !/^4\d\d$/.test(error.status)) problems.push(`error without a 4xx status: ${JSON.stringify(error)}`);
    if ((answer.status === 400 || answer.status === 422) && !DOCUMENT_LEVEL_CODES.has(String(error.code))) {
      const pointer = typeof error.source?.pointer === "string";
      const parameter = typeof error.source?.parameter === "string";
      if (!pointer && !parameter) problems.push(`${answer.status} ${error.code} names no field: ${JSON.stringify(error)}`);
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
      const path = operation.template.replace("{id}", id) + query;
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
          if (isOperationPath(request.path)) for (const problem of apiResponseProblems({ method: request.method, url: request.path, status: answer.status, headers: answer.headers, body: answer.text })) {
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
  report("http-api", { seed: SEED, tried, fiveHundreds, hangsOrResets: findings.filter((f) => /no answer|ended/.test(f.problem)).length, seconds, statuses, created: { paymentInvoices: created.paymentInvoices.size, payoutInvoices: created.payoutInvoices.size, connections: created.connections.size, connectionsDeleted: deletedConnections.size }, stored, findings: findings.length, contractFindings: contract.length, firstFindings: findings.slice(0, 300), firstContractFindings: contract.slice(0, 50) });
  expect(tried).toBeGreaterThanOrEqual(API_RUNS * CONCURRENCY);
  expect(findings.slice(0, 20), `seed ${SEED}: ${findings.length} findings`).toEqual([]);
  // Answers that break the OpenAPI document in other ways (see the report) are listed, not asserted here:
  // tests/helpers/api-validator.ts holds the conformance suites to them.
  if (contract.length) console.log(`bad input: ${contract.length} answers outside the OpenAPI document, e.g. ${contract.slice(0, 5).map((c) => c.problem).join(" | ")}`);
  expect(stored).toEqual({
    paymentInvoices: created.paymentInvoices.size,
    payoutInvoices: created.payoutInvoices.size,
    connections: created.connections.size - deletedConnections.size,
  });
});

test("ids the generators found a 500 with answer a JSON:API 404", async () => {
  // DELETE /api/connections/%00 reached the database with a NUL byte and answered 500 (found by the test above).
  for (const [method, id] of [["DELETE", "%00"], ["DELETE", `${realIds["/api/connections/{id}"]![0]}%00`], ["GET", "%00"], ["PATCH", "%00"]] as const) {
    const answer = await send(ORIGIN, { method, path: `/api/connections/${id}`, headers: { authorization: `Bearer ${apiKeys[0]}`, "content-type": "application/vnd.api+json" }, body: method === "PATCH" ? "{}" : undefined }, TIMEOUT_MS);
    expect("status" in answer && answer.status, `${method} ${id}`).toBe(404);
    expect(judge({ method, path: `/api/connections/${id}`, headers: {} }, answer, true)).toEqual([]);
  }
});

test("the hosted page answers random and malformed invoice ids with 200 or 4xx, never a 5xx or a hang", async () => {
  test.setTimeout(120_000);
  const pageArb = fc
    .record({ id: pathIdArb(hostedIds), query: fc.oneof(fc.constant(""), queryArb(["id", "lang", "next"])), headers: headersArb(["x"]), method: fc.constantFrom("GET", "GET", "GET", "HEAD") })
    .map(({ id, query, headers, method }): BadRequest => ({ method, path: `/pay/${id}${query}`, headers: { accept: "text/html", ...(headers["x-forwarded-for"] ? { "x-forwarded-for": headers["x-forwarded-for"] } : {}), ...(headers["accept"] ? { accept: headers["accept"] } : {}) } }));
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

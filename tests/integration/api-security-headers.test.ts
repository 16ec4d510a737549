import http from "node:http";
import type { AddressInfo } from "node:net";
import { Duplex } from "node:stream";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { NextConfig } from "next";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

// withSession reads the session through next-auth: nobody is signed in here.
vi.mock("@/lib/auth", () => ({ auth: async () => null }));
import * as openapiRoute from "@/app/api/commerce/openapi.json/route";
import * as paymentsRoute from "@/app/api/commerce/payment-invoices/route";
import * as paymentRoute from "@/app/api/commerce/payment-invoices/[id]/route";
import * as paymentAttemptsRoute from "@/app/api/commerce/payment-invoices/[id]/attempts/route";
import * as commerceCatchAll from "@/app/api/commerce/[[...rest]]/route";
import * as apiCatchAll from "@/app/api/[...rest]/route";
import * as connectionsRoute from "@/app/api/connections/route";
import * as connectionRoute from "@/app/api/connections/[id]/route";
import * as dashboardInvoicesRoute from "@/app/api/dashboard/invoices/route";
import * as healthRoute from "@/app/api/health/route";
import * as providersRoute from "@/app/api/providers/route";
import * as routingRoute from "@/app/api/routing/route";
import { overrideRateLimits, resetRateLimits } from "@/lib/api/rate-limit";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { contentSecurityPolicy, proxy } from "@/proxy";
import { answerClientError } from "@/server/client-error";
import { serveCommerce } from "@/server/serve-commerce";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";

/**
 * Every answer under /api carries what the OWASP REST Security Cheat Sheet lists for JSON APIs (a
 * CSP that loads and frames nothing, X-Frame-Options, no-store, nosniff), whichever way it is
 * served: the route modules as `next dev` calls them, the lean path of `npm start`, Next's own
 * answers (next.config.mjs), the server's answers before any route. Pages keep their own policy,
 * which gains form-action, base-uri and object-src.
 */
const t = setUpTestDb();
const API_HEADERS = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

let m: InvoiceMerchant;
let connectionId: string;
beforeAll(async () => {
  m = await invoiceMerchant(t.db);
  connectionId = (await connect(t.db, m.merchantId, "provider-b", "h2h")).id;
});
beforeEach(() => {
  resetRateLimits();
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => {
  overrideRateLimits(undefined);
  vi.restoreAllMocks();
});

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
type Call = { method?: string; key?: string; body?: string; contentType?: string };

async function call<P>(handler: Handler<P> | undefined, path: string, params: P, { method = "GET", key, body, contentType }: Call = {}): Promise<Response> {
  if (!handler) throw new Error(`no ${method} handler for ${path}`);
  const headers = new Headers();
  if (key) headers.set("authorization", `Bearer ${key}`);
  if (body !== undefined) headers.set("content-type", contentType ?? "application/vnd.api+json");
  return handler(new Request(`http://test${path}`, { method, headers, body }), { params: Promise.resolve(params) });
}

function expectApiHeaders(response: Response | Headers, where: string, status?: number) {
  const headers = response instanceof Headers ? response : response.headers;
  if (status !== undefined && !(response instanceof Headers)) expect(response.status, where).toBe(status);
  for (const [name, value] of Object.entries(API_HEADERS)) expect(headers.get(name), `${where}: ${name}`).toBe(value);
}

const PAYMENTS = "/api/commerce/payment-invoices";
const paymentBody = () => JSON.stringify(bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }));

describe("the invoice API's route modules (next dev)", () => {
  it("answers a create (201), a replay, a read and the attempts with the four headers", async () => {
    const body = paymentBody();
    const created = await call(paymentsRoute.POST, PAYMENTS, {}, { method: "POST", key: m.key, body });
    expectApiHeaders(created, "201", 201);
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    expectApiHeaders(await call(paymentsRoute.POST, PAYMENTS, {}, { method: "POST", key: m.key, body }), "replay", 200);
    expectApiHeaders(await call(paymentRoute.GET, `${PAYMENTS}/${id}`, { id }, { key: m.key }), "read", 200);
    expectApiHeaders(await call(paymentAttemptsRoute.GET, `${PAYMENTS}/${id}/attempts`, { id }, { key: m.key }), "attempts", 200);
    expectApiHeaders(await call(paymentsRoute.GET, `${PAYMENTS}?page[size]=1`, {}, { key: m.key }), "list", 200);
    // Next answers HEAD with the GET handler.
    expectApiHeaders(await call(paymentRoute.GET, `${PAYMENTS}/${id}`, { id }, { method: "HEAD", key: m.key }), "HEAD", 200);
  });

  it("answers refusals with them too: 400, 401, 404, 413, 415, 422, 429", async () => {
    const id = "cpi_doesnotexist0000000000";
    expectApiHeaders(await call(paymentsRoute.GET, `${PAYMENTS}?sort=created`, {}, { key: m.key }), "unknown parameter", 400);
    expectApiHeaders(await call(paymentsRoute.POST, PAYMENTS, {}, { method: "POST", body: paymentBody() }), "no key", 401);
    expectApiHeaders(await call(paymentsRoute.POST, PAYMENTS, {}, { method: "POST", key: "pok_unknown", body: paymentBody() }), "unknown key", 401);
    expectApiHeaders(await call(paymentRoute.GET, `${PAYMENTS}/${id}`, { id }, { key: m.key }), "unknown invoice", 404);
    expectApiHeaders(await call(paymentsRoute.POST, PAYMENTS, {}, { method: "POST", key: m.key, body: "x".repeat(70 * 1024) }), "large body", 413);
    expectApiHeaders(
      await call(paymentsRoute.POST, PAYMENTS, {}, { method: "POST", key: m.key, body: paymentBody(), contentType: "text/plain" }),
      "text/plain",
      415,
    );
    const invalid = JSON.stringify({ data: { type: "payment-invoice", attributes: { amount: "-1" } } });
    expectApiHeaders(await call(paymentsRoute.POST, PAYMENTS, {}, { method: "POST", key: m.key, body: invalid }), "invalid body", 422);
    overrideRateLimits({ key: { perSecond: 0.001, burst: 1 }, merchant: { perSecond: 1000, burst: 2000 } });
    expect((await call(paymentRoute.GET, `${PAYMENTS}/${id}`, { id }, { key: m.key })).status).toBe(404);
    expectApiHeaders(await call(paymentRoute.GET, `${PAYMENTS}/${id}`, { id }, { key: m.key }), "over the limit", 429);
  });

  it("answers the catch-alls' 404s and the OpenAPI document (not cached either) with them", async () => {
    expectApiHeaders(await call(commerceCatchAll.GET, "/api/commerce/nothing", { rest: ["nothing"] }), "commerce 404", 404);
    expectApiHeaders(await call(apiCatchAll.DELETE, "/api/nothing/here", { rest: ["nothing", "here"] }, { method: "DELETE" }), "api 404", 404);
    expectApiHeaders(await call(openapiRoute.GET, "/api/commerce/openapi.json", {}), "openapi.json", 200);
  });
});

describe("the management and other APIs", () => {
  it("answers connections, routing and providers with the four headers, refusals included", async () => {
    expectApiHeaders(await call(connectionsRoute.GET, "/api/connections", {}, { key: m.key }), "connections", 200);
    expectApiHeaders(await call(connectionsRoute.GET, "/api/connections", {}), "connections without a key", 401);
    expectApiHeaders(await call(connectionRoute.GET, `/api/connections/${connectionId}`, { id: connectionId }, { key: m.key }), "connection", 200);
    expectApiHeaders(await call(connectionRoute.GET, "/api/connections/conn_nothing", { id: "conn_nothing" }, { key: m.key }), "unknown connection", 404);
    const invalid = JSON.stringify({ data: { type: "connection", attributes: { provider: "provider-b" } } });
    expectApiHeaders(await call(connectionsRoute.POST, "/api/connections", {}, { method: "POST", key: m.key, body: invalid }), "invalid connection", 422);
    expectApiHeaders(await call(routingRoute.GET, "/api/routing", {}, { key: m.key }), "routing", 200);
    expectApiHeaders(await call(providersRoute.GET, "/api/providers", {}), "providers", 200);
    expectApiHeaders(await call(providersRoute.POST, "/api/providers", {}, { method: "POST" }), "providers POST", 405);
    expectApiHeaders(await call(providersRoute.OPTIONS, "/api/providers", {}, { method: "OPTIONS" }), "providers OPTIONS", 204);
  });

  it("answers the dashboard's session routes and the health check with them", async () => {
    expectApiHeaders(await call(dashboardInvoicesRoute.GET, "/api/dashboard/invoices", {}), "dashboard without a session", 401);
    // 503 here, where no job queue runs: a failing check is answered like a passing one.
    expectApiHeaders(await healthRoute.GET(new Request("http://test/api/health")), "health");
    expectApiHeaders(await healthRoute.HEAD(new Request("http://test/api/health", { method: "HEAD" })), "health HEAD");
    expectApiHeaders(await call(healthRoute.POST, "/api/health", {}, { method: "POST" }), "health POST", 405);
  });

  it("has Next add them to its own answers under /api (a method no route exports, a failure before any route)", async () => {
    const configFile = pathToFileURL(path.join(process.cwd(), "next.config.mjs")).href;
    const { default: nextConfig } = (await import(/* @vite-ignore */ configFile)) as { default: NextConfig };
    const rules = await nextConfig.headers!();
    const applied = new Headers();
    for (const rule of rules.filter((r) => r.source === "/:path*" || r.source === "/api/:path*"))
      for (const { key, value } of rule.headers) applied.set(key, value);
    expectApiHeaders(applied, "next.config.mjs");
    const pageRules = rules.filter((r) => r.source !== "/api/:path*").flatMap((r) => r.headers.map((h) => h.key.toLowerCase()));
    expect(pageRules).not.toContain("content-security-policy");
  });
});

describe("the lean path and the server's own answers (npm start)", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
      void serveCommerce(req, res, pathname, "http://127.0.0.1").then((served) => (served ? undefined : res.writeHead(599).end()));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers a create, a 401, a 404, a 405, OPTIONS and the 413 it gives before any handler with the four headers", async () => {
    const headers = { authorization: `Bearer ${m.key}`, "content-type": "application/vnd.api+json" };
    expectApiHeaders(await fetch(base + PAYMENTS, { method: "POST", headers, body: paymentBody() }), "lean 201", 201);
    expectApiHeaders(await fetch(base + PAYMENTS, { method: "POST", headers: { "content-type": "application/json" }, body: paymentBody() }), "lean 401", 401);
    expectApiHeaders(await fetch(`${base}${PAYMENTS}/cpi_doesnotexist0000000000`, { headers }), "lean 404", 404);
    expectApiHeaders(await fetch(`${base}/api/commerce/nothing`), "lean catch-all", 404);
    expectApiHeaders(await fetch(base + PAYMENTS, { method: "PATCH" }), "lean 405", 405);
    expectApiHeaders(await fetch(base + PAYMENTS, { method: "OPTIONS" }), "lean OPTIONS", 204);
    expectApiHeaders(await fetch(base + PAYMENTS, { method: "POST", headers, body: "x".repeat(70 * 1024) }), "lean 413", 413);
  });

  it("writes them, each once, on the answer to a request Node's parser refuses", () => {
    let written = "";
    const socket = new Duplex({
      read() {},
      write(_chunk, _encoding, done) {
        done();
      },
    });
    socket.end = ((chunk: string) => {
      written += chunk;
      return socket;
    }) as Duplex["end"];
    const error = Object.assign(new Error("too large"), { code: "HPE_HEADER_OVERFLOW" });
    answerClientError(error, socket, [
      ["X-Content-Type-Options", "nosniff"],
      ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ]);
    const [head = ""] = written.split("\r\n\r\n");
    const lines = head
      .split("\r\n")
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]);
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expectApiHeaders(new Headers(lines as [string, string][]), "431");
    expect(lines.filter(([name]) => name === "x-content-type-options")).toHaveLength(1);
  });
});

describe("the pages' Content-Security-Policy (proxy.ts)", () => {
  const policyOf = (response: Response) => (response.headers.get("content-security-policy") ?? "").split("; ");

  it.each([
    ["the hosted payment page", "/pay/cpi_AAAAAAAAAAAAAAAAAAAAAA", false],
    ["the sandbox's 3-D Secure page", "/sandbox/3ds/provider-b/ref-1?return=x", false],
    ["the sign-in page", "/sign-in", false],
    ["a dashboard page", "/invoices", true],
  ])("gives %s form-action 'self', base-uri 'none' and object-src 'none'", (_name, path, signedIn) => {
    const request = new NextRequest(`http://localhost${path}`, signedIn ? { headers: { cookie: "authjs.session-token=x" } } : {});
    const response = proxy(request);
    const policy = policyOf(response);
    expect(policy).toEqual(expect.arrayContaining(["form-action 'self'", "base-uri 'none'", "object-src 'none'", "frame-ancestors 'none'"]));
    expect(policy.filter((directive) => directive.startsWith("base-uri"))).toEqual(["base-uri 'none'"]);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
  });

  it("keeps them in development and over https", () => {
    for (const options of [
      { dev: true, https: false },
      { dev: false, https: true },
    ]) {
      expect(contentSecurityPolicy("n0nce", options).split("; ")).toEqual(
        expect.arrayContaining(["form-action 'self'", "base-uri 'none'", "object-src 'none'"]),
      );
    }
  });
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as metricsRoute from "@/app/metrics/route";
import { overrideRateLimits, resetRateLimits } from "@/lib/api/rate-limit";
import { RESOLUTIONS, ATTEMPT_STATUSES } from "@/lib/db/enums";
import { JOB_NAMES } from "@/lib/jobs/names";
import { logger } from "@/lib/logger";
import { payHostedInvoice } from "@/lib/pay/pay-hosted-invoice";
import { PROVIDERS } from "@/lib/providers";
import { credentialsKey } from "@/lib/vault/vault-key";
import { startMetricsListener } from "@/server/metrics-listener";
import { trackRequest } from "@/server/request-metrics";
import { serveCommerce } from "@/server/serve-commerce";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference } from "./helpers/invoice-fixtures";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";

/**
 * `GET /metrics` as an operator's Prometheus reads it: not served without METRICS_TOKEN, 401
 * without the token, then the text format that a Prometheus text parser reads, with the families
 * docs/deploy.md "Watching it" alerts on. Requests go through server.ts's lean path (its request
 * counting and route table) over real HTTP; payments through Provider B's adapter and sandbox.
 * No label carries a merchant's data: route templates, not paths; no ids, references or e-mails.
 */
const t = setUpTestDb();
serveSandboxesAsAppUrl();
const TOKEN = "metrics-token-for-the-integration-test-0123456789";

type Sample = { value?: string; labels?: Record<string, string>; buckets?: Record<string, string> };
type Family = { name: string; help: string; type: string; metrics: Sample[] };

/** server.ts's request handling for /api/commerce (count and time every request, the lean path), over HTTP. */
let server: http.Server;
let origin = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    trackRequest(res);
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    void serveCommerce(req, res, pathname, origin).then((served) => {
      if (!served) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const previousToken = process.env.METRICS_TOKEN;
beforeEach(() => {
  resetRateLimits();
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  overrideRateLimits(undefined);
  if (previousToken === undefined) delete process.env.METRICS_TOKEN;
  else process.env.METRICS_TOKEN = previousToken;
});

const scrapeRequest = (headers: Record<string, string> = {}) => metricsRoute.GET(new Request("http://test/metrics", { headers }));

async function scrape(): Promise<{ text: string; families: Map<string, Family> }> {
  process.env.METRICS_TOKEN = TOKEN;
  const response = await scrapeRequest({ authorization: `Bearer ${TOKEN}` });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const text = await response.text();
  const families = parsePrometheusTextFormat(text) as Family[];
  return { text, families: new Map(families.map((family) => [family.name, family])) };
}

/** The value of one counter or gauge series, 0 when it has not been written yet. */
function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string>): number {
  const sample = families.get(name)?.metrics.find((s) => Object.entries(labels).every(([key, value]) => s.labels?.[key] === value));
  return sample?.value === undefined ? 0 : Number(sample.value);
}

async function call(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; json: { data: { id: string } } }> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/vnd.api+json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : undefined) as { data: { id: string } } };
}

const card = (number: string) => ({ number, expiry: "12/30", cvc: "123", holder: "Ada Lovelace" });

describe("GET /metrics", () => {
  it("is not served without METRICS_TOKEN: 404, and not a page behind sign-in", async () => {
    delete process.env.METRICS_TOKEN;
    const response = await scrapeRequest({ authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("http_requests_total");
  });

  it("answers 401 with a Bearer challenge and no figures without the token or with another one", async () => {
    process.env.METRICS_TOKEN = TOKEN;
    const refused: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of refused) {
      const response = await scrapeRequest(headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await response.text()).not.toContain("http_requests_total");
    }
    expect((await metricsRoute.POST(new Request("http://test/metrics", { method: "POST" }), { params: Promise.resolve({}) })).status).toBe(405);
  });

  it("is served without the token on METRICS_PORT's own listener, which serves nothing else", async () => {
    delete process.env.METRICS_TOKEN;
    const listener = startMetricsListener({ port: 0, host: "127.0.0.1" })!;
    await new Promise<void>((resolve) => (listener.listening ? resolve() : listener.once("listening", () => resolve())));
    try {
      const base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
      const response = await fetch(`${base}/metrics`);
      expect(response.status).toBe(200);
      expect(parsePrometheusTextFormat(await response.text()).length).toBeGreaterThan(10);
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(404);
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });

  it("counts a create under its route template, and every family an alert reads is there, with bounded labels only", async () => {
    const m = await invoiceMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    const reference = newReference();
    const before = await scrape();
    const createSeries = { route: "/api/commerce/payment-invoices", method: "POST", status: "201" };
    const createsBefore = valueOf(before.families, "http_requests_total", createSeries);

    const created = await call(
      "POST",
      "/api/commerce/payment-invoices",
      m.key,
      bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: reference }),
    );
    expect(created.status).toBe(201);
    const invoiceId = created.json.data.id;
    expect((await call("GET", `/api/commerce/payment-invoices/${invoiceId}`, m.key)).status).toBe(200);
    expect((await call("GET", `/api/commerce/no-such-thing/${invoiceId}`, m.key)).status).toBe(404);
    // A declined payment and a paid one: Provider B's adapter calls its sandbox over HTTP.
    expect(await payHostedInvoice(t.db, invoiceId, card("4000000000000002"))).toMatchObject({ ok: true });
    const second = await call(
      "POST",
      "/api/commerce/payment-invoices",
      m.key,
      bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }),
    );
    expect(await payHostedInvoice(t.db, second.json.data.id, card("4242424242424242"))).toMatchObject({ ok: true });
    // One request over the key's limit.
    overrideRateLimits({ key: { perSecond: 0.001, burst: 1 }, merchant: { perSecond: 1000, burst: 2000 } });
    resetRateLimits();
    const refusedBefore = valueOf((await scrape()).families, "rate_limit_refusals_total", { limit: "api_key" });
    await call("GET", `/api/commerce/payment-invoices/${invoiceId}`, m.key);
    expect((await call("GET", `/api/commerce/payment-invoices/${invoiceId}`, m.key)).status).toBe(429);

    const { text, families } = await scrape();
    expect(valueOf(families, "http_requests_total", createSeries)).toBe(createsBefore + 2);
    expect(valueOf(families, "http_requests_total", { route: "/api/commerce/payment-invoices/{id}", method: "GET", status: "200" })).toBeGreaterThanOrEqual(2);
    expect(valueOf(families, "http_requests_total", { route: "/api/commerce/payment-invoices/{id}", method: "GET", status: "429" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, "http_requests_total", { route: "other", method: "GET", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, "rate_limit_refusals_total", { limit: "api_key" })).toBe(refusedBefore + 1);
    expect(valueOf(families, "payment_attempt_outcomes_total", { status: "declined", reason: "issuer_decline" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, "payment_attempt_outcomes_total", { status: "succeeded", reason: "ok" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, "db_pool_max_connections", { driver: t.kind === "postgres" ? "postgres" : "pglite" })).toBeGreaterThanOrEqual(1);
    expect(families.get("db_round_trip_seconds")?.metrics).toHaveLength(1);

    const expected: Record<string, string> = {
      http_requests_total: "COUNTER",
      http_request_duration_seconds: "HISTOGRAM",
      provider_request_duration_seconds: "HISTOGRAM",
      payment_attempt_outcomes_total: "COUNTER",
      rate_limit_refusals_total: "COUNTER",
      webhook_delivery_lag_seconds: "HISTOGRAM",
      request_log_dropped_total: "COUNTER",
      jobs_queue_depth: "GAUGE",
      jobs_queue_oldest_due_seconds: "GAUGE",
      db_pool_max_connections: "GAUGE",
      db_round_trip_seconds: "GAUGE",
      nodejs_eventloop_lag_seconds: "GAUGE",
      process_resident_memory_bytes: "GAUGE",
      nodejs_heap_size_used_bytes: "GAUGE",
    };
    for (const [name, type] of Object.entries(expected)) expect(families.get(name)?.type, name).toBe(type);
    // The parser folds a labelled histogram's series into one; the raw lines show the provider's.
    expect(text).toMatch(/^provider_request_duration_seconds_count\{provider="provider-b",mode="test",outcome="http_2xx"\} [1-9]/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{route="\/api\/commerce\/payment-invoices",method="POST",status="201"\} [1-9]/m);

    // Bounded values only: each label from its own fixed set, and nothing of the merchant's anywhere.
    const queues = families.get("jobs_queue_depth")!.metrics.map((s) => s.labels?.queue);
    expect(new Set(queues)).toEqual(new Set(JOB_NAMES));
    for (const s of families.get("payment_attempt_outcomes_total")!.metrics) {
      expect(ATTEMPT_STATUSES).toContain(s.labels?.status);
      expect([...RESOLUTIONS, "none"]).toContain(s.labels?.reason);
    }
    const routes = families.get("http_requests_total")!.metrics.map((s) => s.labels?.route ?? "");
    for (const route of routes) expect(route, route).toMatch(/^(other|\/[a-z0-9/.{}_-]*)$/);
    for (const s of families.get("http_requests_total")!.metrics) expect(s.labels?.status).toMatch(/^[1-5]\d\d$/);
    const slugs: string[] = PROVIDERS.map((provider) => provider.slug);
    for (const [, provider] of text.matchAll(/provider="([^"]*)"/g)) expect([...slugs, "unknown"], provider).toContain(provider);
    const labelValues = [...text.matchAll(/="((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!);
    expect(labelValues.length).toBeGreaterThan(50);
    for (const value of labelValues) {
      expect(value, value).not.toMatch(/@/);
      expect(value, value).not.toMatch(/(?:^|[^a-z])[a-z]{2,4}_[A-Za-z0-9_-]{22}(?:$|[^A-Za-z0-9_-])/);
    }
    for (const secret of [
      invoiceId,
      second.json.data.id,
      m.merchantId,
      m.keyId,
      m.key,
      m.account,
      reference,
      "4242424242424242",
      "4000000000000002",
      "Ada Lovelace",
    ]) {
      expect(text.includes(secret), secret).toBe(false);
    }
  });
});

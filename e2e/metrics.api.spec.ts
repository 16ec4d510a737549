import { expect, test } from "@playwright/test";
import parsePrometheusTextFormat from "parse-prometheus-text-format";

/**
 * `GET /metrics` through the server as run (server.ts, production build, METRICS_TOKEN set by
 * playwright.config.ts): a scraper without the token gets 401, not the sign-in page; with it, the
 * text format, where requests served by Next (a page, /api/health) and by the lean path count under
 * their route templates in one registry. The families and labels: tests/integration/metrics.test.ts.
 */
type Family = { name: string; type: string; metrics: { value?: string; labels?: Record<string, string> }[] };

test("a scraper without the token gets 401; with it, every route's requests by template, no id in any label", async ({ request }) => {
  const refused = await request.get("/metrics", { maxRedirects: 0 });
  expect(refused.status()).toBe(401);
  expect(refused.headers()["www-authenticate"]).toMatch(/^Bearer/);

  const invoiceId = "cpi_e2eMetricsNoSuchInvoice00";
  expect((await request.get("/api/health")).status()).toBe(200);
  expect((await request.get("/sign-in")).status()).toBe(200);
  expect((await request.get(`/api/commerce/payment-invoices/${invoiceId}`)).status()).toBe(401);

  const scraped = await request.get("/metrics", { headers: { authorization: `Bearer ${process.env.E2E_METRICS_TOKEN}` } });
  expect(scraped.status()).toBe(200);
  expect(scraped.headers()["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await scraped.text();
  const families = new Map((parsePrometheusTextFormat(text) as Family[]).map((family) => [family.name, family]));
  const count = (labels: Record<string, string>) =>
    Number(families.get("http_requests_total")?.metrics.find((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v))?.value ?? 0);
  expect(count({ route: "/api/health", method: "GET", status: "200" })).toBeGreaterThanOrEqual(1);
  expect(count({ route: "/sign-in", method: "GET", status: "200" })).toBeGreaterThanOrEqual(1);
  expect(count({ route: "/api/commerce/payment-invoices/{id}", method: "GET", status: "401" })).toBeGreaterThanOrEqual(1);
  expect(count({ route: "/metrics", method: "GET", status: "401" })).toBeGreaterThanOrEqual(1);
  expect(families.get("nodejs_eventloop_lag_seconds")?.type).toBe("GAUGE");
  expect(families.get("jobs_queue_depth")?.metrics.length).toBeGreaterThan(0);
  expect(text).not.toContain(invoiceId);
  expect(text).not.toContain(process.env.E2E_METRICS_TOKEN!);
});

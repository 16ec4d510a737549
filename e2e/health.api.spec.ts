import { expect, test } from "@playwright/test";

/**
 * `/api/health` through the server as run (server.ts, production build): what a load
 * balancer's probe gets without a session or a key. The e2e server runs on the embedded database
 * with its job workers, so both checks pass. The 503 answers: tests/integration/health.test.ts.
 */
test("GET /api/health answers 200 with each check, never cached, with a request id, to anyone", async ({ request }) => {
  const response = await request.get("/api/health", { maxRedirects: 0 });
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers["content-type"]).toBe("application/json");
  expect(headers["cache-control"]).toBe("no-store");
  expect(headers["x-request-id"]).toMatch(/^req_[A-Za-z0-9_-]+$/);
  expect(headers["set-cookie"]).toBeUndefined();
  const text = await response.text();
  expect(JSON.parse(text)).toEqual({
    status: "ok",
    checks: {
      database: { status: "ok", kind: "embedded", duration_ms: expect.any(Number) },
      jobs: { status: "ok", workers: "running", duration_ms: expect.any(Number) },
    },
  });
  // Nothing about where the data lives.
  expect(text).not.toContain(process.env.E2E_DATA_DIR!);
});

test("HEAD /api/health answers the same status without a body, and keeps the caller's request id", async ({ request }) => {
  const response = await request.head("/api/health", { headers: { "X-Request-Id": "lb-probe-7" } });
  expect(response.status()).toBe(200);
  expect(response.headers()["x-request-id"]).toBe("lb-probe-7");
  expect(response.headers()["cache-control"]).toBe("no-store");
  expect(await response.body()).toHaveLength(0);
});

test("other methods get the API's JSON:API 405, and paths below it the API's 404", async ({ request }) => {
  const post = await request.post("/api/health", { data: {} });
  expect(post.status()).toBe(405);
  expect(post.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
  expect((await post.json()).errors[0].code).toBe("method_not_allowed");
  const below = await request.get("/api/health/deep");
  expect(below.status()).toBe(404);
  expect(below.headers()["content-type"]).toBe("application/vnd.api+json");
});

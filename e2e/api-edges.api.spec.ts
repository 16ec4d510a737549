import { expect, test } from "@playwright/test";

/**
 * Issue 13 (found by the bad-input suite): paths under /api that no route serves answer a JSON:API
 * 404 with X-Request-Id, not Next's HTML page; OPTIONS on the invoice API carries X-Request-Id too.
 */
for (const path of ["/api/connections/x/y", "/api/routing/a/b", "/api/nothing", "/api/providers/x", "/api/commerce/nothing"]) {
  test(`${path} answers a JSON:API 404 with its request id`, async ({ request }) => {
    for (const method of ["GET", "POST", "DELETE"] as const) {
      const answer = await request.fetch(path, { method, headers: { accept: "application/vnd.api+json" } });
      expect(answer.status(), `${method} ${path}`).toBe(404);
      expect(answer.headers()["content-type"]).toContain("application/vnd.api+json");
      const requestId = answer.headers()["x-request-id"];
      expect(requestId).toMatch(/^req_/);
      const body = await answer.json();
      expect(body.errors[0]).toMatchObject({ status: "404", code: "not_found" });
      expect(body.meta.request_id).toBe(requestId);
    }
  });
}

test("a malformed multipart body to an /api path no route serves is a JSON:API 404, not Next's 500", async ({ request }) => {
  const answer = await request.fetch("/api/routing/a/b", { method: "POST", headers: { "content-type": "multipart/form-data; boundary=x" }, data: "garbage" });
  expect(answer.status()).toBe(404);
  expect((await answer.json()).errors[0].code).toBe("not_found");
});

test("OPTIONS on the invoice API lists the methods and carries X-Request-Id", async ({ request }) => {
  const answer = await request.fetch("/api/commerce/payment-invoices", { method: "OPTIONS" });
  expect(answer.status()).toBe(204);
  expect(answer.headers()["allow"]).toContain("POST");
  expect(answer.headers()["x-request-id"]).toMatch(/^req_/);
});

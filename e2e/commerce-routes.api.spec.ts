import { expect, test, type APIResponse } from "@playwright/test";

/** Unknown paths and methods under /api/commerce answer JSON:API through the server as run (server.ts). */
async function expectJsonApiError(response: APIResponse, status: number, code: string) {
  expect(response.status()).toBe(status);
  expect(response.headers()["content-type"]).toBe("application/vnd.api+json");
  const body = await response.json();
  expect(body.errors).toEqual([expect.objectContaining({ status: String(status), code })]);
  expect(body.meta.request_id).toBe(response.headers()["x-request-id"]);
}

test("unknown paths under /api/commerce answer a JSON:API 404, not an HTML page", async ({ request }) => {
  await expectJsonApiError(await request.get("/api/commerce/nope"), 404, "not_found");
  await expectJsonApiError(await request.post("/api/commerce/payment-invoices/x/y", { data: {} }), 404, "not_found");
  await expectJsonApiError(await request.get("/api/commerce"), 404, "not_found");
});

test("a known path with another method answers a JSON:API 405 with Allow", async ({ request }) => {
  const response = await request.delete("/api/commerce/payment-invoices");
  await expectJsonApiError(response, 405, "method_not_allowed");
  expect(response.headers()["allow"]).toContain("POST");
});

test("the known routes are still served", async ({ request }) => {
  const openapi = await request.get("/api/commerce/openapi.json");
  expect(openapi.status()).toBe(200);
  expect((await openapi.json()).openapi).toMatch(/^3\.1/);
  await expectJsonApiError(await request.get("/api/commerce/payment-invoices"), 401, "unauthorized");
});

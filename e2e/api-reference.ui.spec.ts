import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";

/** Issue 12: the API reference page renders the live OpenAPI document and is linked from API keys and the composer. */
test("the API reference shows every operation and schema of /api/commerce/openapi.json, reached from API keys and the composer", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signUp(page);
  const outside: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(test.info().project.use.baseURL!)) outside.push(request.url());
  });

  await page.goto("/api-keys");
  await page.locator("#main").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

  const response = await page.request.get("/api/commerce/openapi.json");
  expect(response.status()).toBe(200);
  const doc = await response.json();
  const operations = page.getByTestId("api-operation");
  const expected = Object.entries(doc.paths as Record<string, Record<string, { operationId: string; summary: string }>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
  expect(expected.map((e) => `${e.method} ${e.path}`)).toContain("post /api/commerce/payment-invoices");
  await expect(operations).toHaveCount(expected.length);
  for (const { path, method, op } of expected) {
    const section = page.locator(`section#${op.operationId}`);
    await expect(section.getByRole("heading", { level: 2 })).toHaveText(`${method}${path}`);
    await expect(section).toContainText(op.summary);
  }
  await expect(page.getByTestId("api-base-url")).toHaveText(doc.servers[0].url);
  for (const name of Object.keys(doc.components.schemas)) {
    await expect(page.getByRole("heading", { level: 3, name, exact: true })).toBeVisible();
  }
  // The request body's members, down to the fields a merchant fills in.
  await expect(page.locator("#schema-PaymentInvoiceRequest")).toContainText("reference_id");
  await expect(page.locator("#schema-PaymentInvoiceRequest")).toContainText("commerce_account");

  // Keyboard: an endpoint link in the side list jumps to its section.
  const link = page.getByRole("navigation", { name: "Endpoints" }).getByRole("link").first();
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`#${expected[0]!.op.operationId}$`));
  await expectNoSeriousViolations(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: "/tmp/shots-3123/api-reference-1280.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "/tmp/shots-3123/api-reference-390.png" });
  expect(outside).toEqual([]);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/invoices/new");
  await page.locator("#main").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await context.close();
});

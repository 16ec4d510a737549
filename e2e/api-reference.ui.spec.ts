import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createApiKey, signUp } from "./support/accounts";
import { sharedTest } from "./support/fixtures";
import { expectNoSeriousViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";

type Operation = { operationId: string; summary: string; tags?: string[]; parameters?: { name: string }[] };
type OpenApi = { openapi: string; servers: { url: string }[]; tags: { name: string }[]; paths: Record<string, Record<string, Operation>> };

const DOCUMENT_URL = "/api/commerce/openapi.json";
// A path item also holds shared `parameters`: only these keys are operations.
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

// Screenshots only when asked for (E2E_SCREENSHOTS, e2e/support/screenshots.ts): CI takes none.
const shoot = (page: Page, name: string) => screenshot(page, name);

async function documentOperations(page: Page) {
  const response = await page.request.get(DOCUMENT_URL);
  expect(response.status()).toBe(200);
  const doc = (await response.json()) as OpenApi;
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  return { doc, operations };
}

/**
 * The API reference is HTML rendered on the server from the OpenAPI document: operations grouped by
 * tag, each with its tables and examples, a deep link, a search box, the raw document one click away.
 */
// Any signed-in owner will do: the worker's shared merchant (e2e/support/fixtures.ts). Nothing here changes it.
sharedTest("the API reference shows every operation of the document by group, with deep links, search and the raw document", async ({ browser, merchant }) => {
  // Every operation checked and axe over the whole reference (thousands of table cells): minutes on a busy two-core machine.
  test.setTimeout(360_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: merchant.storageState });
  const page = await context.newPage();
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const outside: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith("data:") && new URL(url).origin !== origin) outside.push(url);
  });

  // API keys links to the reference's authentication paragraph.
  await page.goto("/api-keys");
  await page.locator("#main").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api#authentication$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  await expect(page.locator("#authentication")).toBeInViewport();

  const { doc, operations } = await documentOperations(page);
  await expect(page.getByTestId("api-base-url")).toHaveText(doc.servers[0]!.url);

  // Grouped: each tag's section holds its operations, each showing method, path and summary.
  const reference = page.getByTestId("api-reference");
  await expect(reference.locator("[data-operation]")).toHaveCount(operations.length);
  for (const { path, method, op } of operations) {
    const section = reference.locator(`[data-tag-group="${op.tags![0]}"]`).locator(`section[id="${op.operationId}"]`);
    await expect(section.getByRole("heading", { level: 3 })).toHaveText(`${method}${path}`);
    await expect(section).toContainText(op.summary);
  }
  for (const tag of doc.tags) await expect(reference.getByRole("heading", { level: 2, name: tag.name, exact: true })).toBeVisible();

  // Tables: the request body's members (required marked), every query parameter, the answers with their schema.
  const create = page.locator("#createPaymentInvoice");
  const body = create.getByRole("table", { name: "Request body of POST /api/commerce/payment-invoices" });
  await expect(body.getByRole("row", { name: /^reference_id required/ })).toBeVisible();
  await expect(body.getByRole("row", { name: /^commerce_account required/ })).toBeVisible();
  await expect(create.getByLabel(/^Request example: /).first()).toContainText(`"commerce_account": "${merchant.account.commerceAccount}"`);
  const list = page.locator("#listPaymentInvoices");
  for (const parameter of doc.paths["/api/commerce/payment-invoices"]!.get!.parameters ?? [])
    await expect(list.locator(`tr[data-parameter="${parameter.name}"]`)).toBeVisible();
  await expect(create.locator('tr[data-status="422"]')).toContainText("Validation failed");
  await create.locator('tr[data-status="201"]').getByRole("link", { name: "InvoiceDocument" }).click();
  await expect(page).toHaveURL(/#schema-InvoiceDocument$/);
  await expect(page.locator("#schema-InvoiceDocument")).toBeInViewport();

  // Deep links: the operation's own link, and a fresh load of the page at it.
  await page.locator("#createRefund").getByRole("link", { name: "Link to POST /api/commerce/payment-invoices/{id}/refunds" }).click();
  await expect(page).toHaveURL(/\/docs\/api#createRefund$/);
  await page.goto("/docs/api#simulateRouting");
  await expect(page.locator("#simulateRouting")).toBeInViewport();

  // Search filters as one types, groups left empty go, and clearing it shows everything again.
  const search = page.getByRole("searchbox", { name: "Search operations" });
  await search.fill("refund");
  await expect(page.locator("#createRefund")).toBeVisible();
  await expect(page.locator("#createConnection")).toBeHidden();
  await expect(page.locator('[data-tag-group="connections"]')).toBeHidden();
  const matching = operations.filter(({ path, op }) => `${path} ${op.operationId} ${op.summary}`.toLowerCase().includes("refund")).length;
  await expect(page.getByText(new RegExp(`^\\d+ of ${operations.length} operations shown$`))).toBeVisible();
  const visible = await reference.locator("[data-operation]:visible").count();
  expect(visible).toBeGreaterThanOrEqual(matching);
  expect(visible).toBeLessThan(operations.length);
  await expect(page.getByText(`${visible} of ${operations.length} operations shown`)).toBeVisible();
  await expect(page).toHaveURL(/\?q=refund/);
  await search.fill("");
  await expect(reference.locator("[data-operation]:visible")).toHaveCount(operations.length);

  await expectNoSeriousViolations(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, "api-reference-1280");
  await create.scrollIntoViewIfNeeded();
  await shoot(page, "api-reference-1280-operation");

  // Phones: the page never scrolls sideways; wide tables scroll inside their own box.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, "api-reference-390");
  await create.scrollIntoViewIfNeeded();
  await shoot(page, "api-reference-390-operation");

  // The raw document, one click away.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const raw = page.getByRole("link", { name: "OpenAPI document (JSON)" });
  await expect(raw).toHaveAttribute("href", DOCUMENT_URL);
  await raw.click();
  await expect(page).toHaveURL(new RegExp(`${DOCUMENT_URL.replace(/\./g, "\\.")}$`));
  expect(JSON.parse((await page.locator("body").textContent())!).openapi).toBe(doc.openapi);

  // Nothing was asked of any other origin, and no client renderer's files load any more.
  expect(outside).toEqual([]);
  await context.close();
});

sharedTest("without JavaScript the API reference still shows every operation, and ?q= filters on the server", async ({ browser, merchant }) => {
  test.slow();
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 }, storageState: merchant.storageState });
    const page = await context.newPage();
    const { operations } = await documentOperations(page);
    await page.goto("/docs/api");
    await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
    const reference = page.getByTestId("api-reference");
    await expect(reference.locator("[data-operation]")).toHaveCount(operations.length);
    for (const { op } of operations) await expect(page.locator(`section[id="${op.operationId}"]`)).toBeVisible();
    // Try it says what it needs instead of a button that does nothing.
    await expect(page.locator("#createPaymentInvoice").getByText("Try it sends this request from the page once JavaScript has loaded.")).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shoot(page, `api-reference-no-js-${width}`);

    // The search box is a plain GET form.
    await page.getByRole("searchbox", { name: "Search operations" }).fill("updateRoutingSettings");
    await page.locator("#main").getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/docs\/api\?q=updateRoutingSettings$/);
    await expect(page.locator("#updateRoutingSettings")).toBeVisible();
    await expect(page.locator("#getRoutingSettings")).toBeHidden();
    await expect(page.locator("#listConnections")).toBeHidden();
    await expect(reference.locator("[data-operation]:visible")).toHaveCount(1);
    await expect(page.locator('[data-tag-group="payments"]')).toBeHidden();
    await context.close();
  }
});

test("Try it, with the keyboard only, sends the merchant's example with a freshly created test key and shows the 201; a GET shows its 200", async ({
  page,
}) => {
  // A sign-up and a page of thousands of table cells.
  test.setTimeout(180_000);
  // Signed up in this page, which lands signed in: no second browser context and sign-in for the key.
  const account = await signUp(page);
  const merchant = { ...account, apiKey: await createApiKey(page) };
  const credentials = { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" };
  const connection = await page.request.post("/api/connections", {
    headers: { Authorization: `Bearer ${merchant.apiKey}`, "Content-Type": "application/vnd.api+json" },
    data: { data: { type: "connection", attributes: { provider: "provider-b", kind: "h2h", label: "B reference", mode: "test", credentials, constants: {} } } },
  });
  expect(connection.status(), await connection.text()).toBe(201);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/docs/api#createPaymentInvoice");
  const create = page.locator("#createPaymentInvoice");

  // The form is not on the page until Try it is used.
  await expect(create.locator("form[data-try-it]")).toHaveCount(0);
  const open = create.getByRole("button", { name: "Try it: POST /api/commerce/payment-invoices" });
  await open.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(open).toBeFocused();
  expect(await open.evaluate((e) => `${getComputedStyle(e).outlineStyle} ${getComputedStyle(e).outlineWidth}`)).toBe("solid 2px");
  await page.keyboard.press("Enter");

  // The key field takes the focus and says where the key goes.
  const key = create.getByLabel("API key");
  await expect(key).toBeFocused();
  await expect(create.getByText("Where the key goes: the Authorization header")).toBeVisible();
  await page.keyboard.type(merchant.apiKey);
  await page.keyboard.press("Tab");
  const example = create.getByLabel("Start from example");
  await expect(example).toBeFocused();
  await page.keyboard.type("Provider B");
  await expect(example).toHaveValue("b-payment");
  await page.keyboard.press("Tab");
  const bodyField = create.getByLabel("Body (JSON)");
  await expect(bodyField).toBeFocused();
  await expect(bodyField).toHaveValue(new RegExp(`"commerce_account": "${merchant.commerceAccount}"`));
  await page.keyboard.press("Tab");
  await expect(create.getByRole("button", { name: "Send POST" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(create.getByTestId("try-it-status")).toContainText("Status 201");
  await expect(create.getByLabel("Response body")).toContainText('"type": "payment-invoice"');
  // The Try it form and its answer: the rest of the reference is scanned whole in the first test.
  await expectNoSeriousViolations(page, { include: "#createPaymentInvoice" });
  await shoot(page, "api-reference-try-it-1280");

  // A read on a phone: the connection list answers 200 with the connection just made.
  await page.setViewportSize({ width: 390, height: 844 });
  const list = page.locator("#listConnections");
  await list.getByRole("button", { name: "Try it: GET /api/connections" }).click();
  await list.getByLabel("API key").fill(merchant.apiKey);
  await list.getByRole("button", { name: "Send GET" }).click();
  await expect(list.getByTestId("try-it-status")).toContainText("Status 200");
  await expect(list.getByLabel("Response body")).toContainText("B reference");
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await list.scrollIntoViewIfNeeded();
  await shoot(page, "api-reference-try-it-390");

  // Without a key it says where the key goes, on the field, and sends nothing.
  await list.getByLabel("API key").fill("");
  await list.getByRole("button", { name: "Send GET" }).click();
  await expect(list.getByLabel("API key")).toBeFocused();
  await expect(list.getByText("Paste an API key: it goes in the Authorization header.")).toBeVisible();
});

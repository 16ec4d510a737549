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
const tagTitle = (tag: string) => (tag.charAt(0).toUpperCase() + tag.slice(1)).replace(/-/g, " ");

// Screenshots only when asked for (E2E_SCREENSHOTS, e2e/support/screenshots.ts): CI takes none.
const shoot = (page: Page, name: string) => screenshot(page, name);

async function documentOperations(page: Page) {
  const response = await page.request.get(DOCUMENT_URL);
  expect(response.status()).toBe(200);
  const doc = (await response.json()) as OpenApi;
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({ path, method: method.toUpperCase(), op, tag: op.tags![0]! })),
  );
  return { doc, operations };
}

/** An axe scan of the whole page, its time kept in the report (a tag's page is a fraction of the old single page). */
async function timedAxe(page: Page, what: string) {
  const started = Date.now();
  await expectNoSeriousViolations(page);
  test.info().annotations.push({ type: "axe", description: `${what}: ${Date.now() - started} ms` });
}

/**
 * The API reference is HTML rendered on the server from the OpenAPI document: an index of the groups
 * (tags) and their operations, and one page per group with its operations in full, each with its
 * tables, examples and deep link; a search over every group, the raw document one click away.
 */
// Any signed-in owner will do: the worker's shared merchant (e2e/support/fixtures.ts). Nothing here changes it.
sharedTest(
  "the index lists every group and operation, each group's page shows its operations in full, old links land on the operation",
  async ({ browser, merchant }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: merchant.storageState });
    const page = await context.newPage();
    const origin = new URL(test.info().project.use.baseURL!).origin;
    const outside: string[] = [];
    page.on("request", (request) => {
      const url = request.url();
      if (!url.startsWith("data:") && new URL(url).origin !== origin) outside.push(url);
    });

    // API keys links to the index's authentication paragraph.
    await page.goto("/api-keys");
    await page.locator("#main").getByRole("link", { name: "API reference" }).click();
    await expect(page).toHaveURL(/\/docs\/api#authentication$/);
    await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
    await expect(page.locator("#authentication")).toBeInViewport();

    // The index: every group, every operation, each entry linked to its place on its group's page.
    const { doc, operations } = await documentOperations(page);
    await expect(page.getByTestId("api-base-url")).toHaveText(doc.servers[0]!.url);
    const reference = page.getByTestId("api-reference");
    await expect(reference.locator("[data-toc]")).toHaveCount(operations.length);
    for (const tag of doc.tags) await expect(reference.getByRole("heading", { level: 3, name: tagTitle(tag.name), exact: true })).toBeVisible();
    for (const { path, method, op, tag } of operations) {
      const entry = reference.locator(`[data-tag-group="${tag}"]`).locator(`li[id="${op.operationId}"]`).getByRole("link");
      await expect(entry).toHaveAttribute("href", `/docs/api/${tag}#${op.operationId}`);
      await expect(entry).toContainText(`${method}${path}`);
      await expect(entry).toContainText(op.summary);
    }
    await timedAxe(page, "index");
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, "api-reference-index-1280");

    // A group's page: its operations only, in full.
    await reference.getByRole("link", { name: "Payments", exact: true }).click();
    await expect(page).toHaveURL(/\/docs\/api\/payments$/);
    await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
    const payments = operations.filter((operation) => operation.tag === "payments");
    await expect(reference.locator("[data-operation]")).toHaveCount(payments.length);
    for (const { path, method, op } of payments) {
      const section = reference.locator(`section[id="${op.operationId}"]`);
      await expect(section.getByRole("heading", { level: 3 })).toHaveText(`${method}${path}`);
      await expect(section).toContainText(op.summary);
    }

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
    await expect(page).toHaveURL(/\/docs\/api\/payments#schema-InvoiceDocument$/);
    await expect(page.locator("#schema-InvoiceDocument")).toBeInViewport();
    // The list of invoices names the invoice's members instead of repeating them.
    await expect(page.locator("#schema-InvoiceList [data-items-as]")).toContainText("has the members of InvoiceDocument's data");
    await page.locator("#createRefund").getByRole("link", { name: "Link to this operation: POST /api/commerce/payment-invoices/{id}/refunds" }).click();
    await expect(page).toHaveURL(/\/docs\/api\/payments#createRefund$/);
    await timedAxe(page, "payments page");
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, "api-reference-tag-1280");
    await create.scrollIntoViewIfNeeded();
    await shoot(page, "api-reference-tag-1280-operation");

    // Every other group's page holds exactly its own operations: together, the whole document once.
    for (const tag of doc.tags.filter((tag) => tag.name !== "payments")) {
      await page.goto(`/docs/api/${tag.name}`);
      await expect(page.getByRole("heading", { level: 1, name: tagTitle(tag.name) })).toBeVisible();
      const own = operations.filter((operation) => operation.tag === tag.name);
      await expect(reference.locator("[data-operation]")).toHaveCount(own.length);
      for (const { op } of own) await expect(reference.locator(`section[id="${op.operationId}"]`)).toBeVisible();
    }
    expect((await page.goto("/docs/api/no-such-group"))?.status()).toBe(404);

    // Old links into the single page land on the operation (or group, or schema) on its group's page.
    await page.goto("/docs/api#simulateRouting");
    await expect(page).toHaveURL(/\/docs\/api\/routing#simulateRouting$/);
    await expect(page.locator("#simulateRouting")).toBeInViewport();
    await page.goto("/docs/api#tag-connections");
    await expect(page).toHaveURL(/\/docs\/api\/connections$/);
    await page.goto("/docs/api#schema-RoutingSettingsDocument");
    await expect(page).toHaveURL(/\/docs\/api\/routing#schema-RoutingSettingsDocument$/);
    await expect(page.locator("#schema-RoutingSettingsDocument")).toBeInViewport();

    // Phones: no page scrolls sideways; wide tables scroll inside their own box.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [
      ["/docs/api", "api-reference-index-390"],
      ["/docs/api/payments", "api-reference-tag-390"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shoot(page, name);
    }
    await create.scrollIntoViewIfNeeded();
    await shoot(page, "api-reference-tag-390-operation");

    // The raw document, one click away from any page of the reference.
    await page.setViewportSize({ width: 1280, height: 900 });
    const raw = page.getByRole("link", { name: "OpenAPI document (JSON)" });
    await expect(raw).toHaveAttribute("href", DOCUMENT_URL);
    await raw.click();
    await expect(page).toHaveURL(new RegExp(`${DOCUMENT_URL.replace(/\./g, "\\.")}$`));
    expect(JSON.parse((await page.locator("body").textContent())!).openapi).toBe(doc.openapi);

    // Nothing was asked of any other origin.
    expect(outside).toEqual([]);
    await context.close();
  },
);

sharedTest("the search finds operations of every group, with the keyboard, and says when nothing matches", async ({ browser, merchant }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: merchant.storageState });
  const page = await context.newPage();
  const { operations } = await documentOperations(page);

  // From a group's page, keyboard only: the box, the word, Enter.
  await page.goto("/docs/api/connections");
  const search = page.getByRole("searchbox", { name: "Search operations" });
  await search.focus();
  await page.keyboard.type("refund");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/docs\/api\?q=refund$/);
  const results = page.getByRole("list", { name: "Search results" }).getByRole("link");
  const matching = operations.filter(({ path, op }) => `${path} ${op.operationId} ${op.summary}`.toLowerCase().includes("refund"));
  const count = await results.count();
  expect(count).toBeGreaterThanOrEqual(matching.length);
  expect(count).toBeLessThan(operations.length);
  await expect(page.locator("#api-search-count")).toHaveText(new RegExp(`^${count} of ${operations.length} operations match “refund”`));
  // Results come from more than one group, each linked to its place on its group's page.
  await expect(page.locator('[data-result="createRefund"] a')).toHaveAttribute("href", "/docs/api/payments#createRefund");
  await expect(page.locator('[data-result="getRefund"] a')).toHaveAttribute("href", "/docs/api/refunds#getRefund");
  await expect(search).toHaveValue("refund");

  // Tab from the Search button: the way back, then the first result; Enter opens it at the operation.
  await page.locator("#main").getByRole("button", { name: "Search", exact: true }).focus();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Clear the search" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(results.first()).toBeFocused();
  const href = (await results.first().getAttribute("href"))!;
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${href.replace(/[/#]/g, "\\$&")}$`));
  await expect(page.locator(`#${href.split("#")[1]}`)).toBeInViewport();

  // Nothing matches: said so, and no list.
  await page.goto("/docs/api");
  await page.getByRole("searchbox", { name: "Search operations" }).fill("zebra crossing");
  await page.getByRole("searchbox", { name: "Search operations" }).press("Enter");
  await expect(page).toHaveURL(/\/docs\/api\?q=zebra\+crossing$/);
  await expect(page.locator("#api-search-count")).toContainText("No operation matches “zebra crossing”.");
  await expect(page.getByRole("list", { name: "Search results" })).toHaveCount(0);
  await timedAxe(page, "index with a search");
  await context.close();
});

sharedTest("without JavaScript the reference reads completely: the index, a group's page, old links and the search", async ({ browser, merchant }) => {
  test.slow();
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 }, storageState: merchant.storageState });
    const page = await context.newPage();
    const { operations } = await documentOperations(page);
    await page.goto("/docs/api");
    await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
    const reference = page.getByTestId("api-reference");
    await expect(reference.locator("[data-toc]")).toHaveCount(operations.length);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // An old link stays on the index at the operation's entry, which links to the operation.
    await page.goto("/docs/api#createRefund");
    await expect(page).toHaveURL(/\/docs\/api#createRefund$/);
    await expect(page.locator("li#createRefund")).toBeInViewport();
    await page.locator("li#createRefund").getByRole("link").click();
    await expect(page).toHaveURL(/\/docs\/api\/payments#createRefund$/);
    const payments = operations.filter((operation) => operation.tag === "payments");
    await expect(reference.locator("[data-operation]")).toHaveCount(payments.length);
    for (const { op } of payments) await expect(page.locator(`section[id="${op.operationId}"]`)).toBeVisible();
    // Try it says what it needs instead of a button that does nothing.
    await expect(page.locator("#createPaymentInvoice").getByText("Try it sends this request from the page once JavaScript has loaded.")).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shoot(page, `api-reference-no-js-${width}`);

    // The search box is a plain GET form, on every page of the reference.
    await page.getByRole("searchbox", { name: "Search operations" }).fill("updateRoutingSettings");
    await page.locator("#main").getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/docs\/api\?q=updateRoutingSettings$/);
    const results = page.getByRole("list", { name: "Search results" }).getByRole("link");
    await expect(results).toHaveCount(1);
    await expect(results).toHaveAttribute("href", "/docs/api/routing#updateRoutingSettings");
    await context.close();
  }
});

test("Try it, with the keyboard only, sends the merchant's example with a freshly created test key and shows the 201; a GET shows its 200", async ({
  page,
}) => {
  test.setTimeout(120_000);
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
  // An old link: it lands on the operation on the payments page.
  await page.goto("/docs/api#createPaymentInvoice");
  await expect(page).toHaveURL(/\/docs\/api\/payments#createPaymentInvoice$/);
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
  // The Try it form and its answer: the rest of the page is scanned in the first test.
  await expectNoSeriousViolations(page, { include: "#createPaymentInvoice" });
  await shoot(page, "api-reference-try-it-1280");

  // A read on a phone: the connection list answers 200 with the connection just made.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/docs/api/connections#listConnections");
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

import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { merchantWithKey, signIn } from "./support/accounts";
import { sharedTest } from "./support/fixtures";
import { expectNoSeriousViolations } from "./support/axe";

type Operation = { operationId: string; summary: string; tags?: string[]; parameters?: { name: string }[] };
type OpenApi = { servers: { url: string }[]; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const DOCUMENT_URL = "/api/commerce/openapi.json";
// A path item also holds shared `parameters`, `summary`…: only these keys are operations.
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

async function shoot(page: Page, name: string) {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await test.info().attach(name, { path: file, contentType: "image/png" });
}

/**
 * The API reference renders the live OpenAPI document with Swagger UI, whose files come
 * from this server and load on that page only; it is reached from API keys and the composer.
 */
// Any signed-in owner will do: the worker's shared merchant (e2e/support/fixtures.ts).
sharedTest("the API reference renders every operation and schema of /api/commerce/openapi.json with Swagger UI, from this server only", async ({ browser, merchant }) => {
  // Two page visits, every operation and schema checked, axe over an opened operation.
  test.slow();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: merchant.storageState });
  const page = await context.newPage();
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const outside: string[] = [];
  const viewerFiles: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith("data:") && new URL(url).origin !== origin) outside.push(url);
    if (/swagger-ui(-bundle\.js|\.css)$/.test(new URL(url).pathname)) viewerFiles.push(new URL(url).pathname);
  });

  // Other dashboard pages do not load the viewer.
  await page.goto("/invoices");
  await expect(page.getByRole("heading", { level: 1, name: "Invoices" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(viewerFiles).toEqual([]);
  await expect(page.locator('script[src*="swagger-ui"], link[href*="swagger-ui"]')).toHaveCount(0);

  await page.goto("/api-keys");
  // API keys links to the reference's Authentication section (Swagger UI then writes its own form of the hash).
  await page.locator("#main").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api#\/?authentication$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

  const response = await page.request.get(DOCUMENT_URL);
  expect(response.status()).toBe(200);
  const doc = (await response.json()) as OpenApi;
  await expect(page.getByTestId("api-base-url")).toHaveText(doc.servers[0]!.url);
  await expect(page.locator("#main").getByRole("link", { name: DOCUMENT_URL }).first()).toHaveAttribute("href", DOCUMENT_URL);

  // Every operation of the live document, as Swagger UI shows it: method, path, summary, operationId.
  const reference = page.getByTestId("api-reference");
  const expected = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({ path, method, op })),
  );
  expect(expected.map((e) => `${e.method} ${e.path}`)).toContain("post /api/commerce/payment-invoices");
  await expect(reference.locator(".opblock")).toHaveCount(expected.length);
  for (const { path, method, op } of expected) {
    const block = reference.locator(`[id="operations-${op.tags?.[0] ?? "default"}-${op.operationId}"]`);
    await expect(block.locator(".opblock-summary-method")).toHaveText(method.toUpperCase());
    await expect(block.locator(".opblock-summary-path")).toHaveText(path);
    await expect(block.locator(".opblock-summary-description")).toHaveText(op.summary);
    await expect(block.locator(".opblock-summary-operation-id")).toHaveText(op.operationId);
  }
  // Every schema, in the Schemas section.
  const schemas = reference.locator("section.models");
  await expect(schemas.getByRole("button", { name: "Schemas" })).toHaveAttribute("aria-expanded", "true");
  const schemaNames = Object.keys(doc.components.schemas);
  await expect(schemas.locator('article[data-json-schema-level="0"]')).toHaveCount(schemaNames.length);
  for (const name of schemaNames) await expect(schemas.getByRole("button", { name, exact: true })).toBeVisible();

  // Keyboard: an operation opens with Enter, its focus ring showing; its request body lists the fields.
  const create = reference.locator('[id="operations-payments-createPaymentInvoice"]');
  const createControl = create.locator(".opblock-summary-control");
  await createControl.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(createControl).toBeFocused();
  expect(await createControl.evaluate((e) => `${getComputedStyle(e).outlineStyle} ${getComputedStyle(e).outlineWidth}`)).toBe("solid 2px");
  await page.keyboard.press("Enter");
  await expect(createControl).toHaveAttribute("aria-expanded", "true");
  await expect(page).toHaveURL(/#\/payments\/createPaymentInvoice$/);
  const requestBody = create.locator(".opblock-section-request-body");
  await expect(requestBody).toContainText("reference_id");
  await expect(requestBody).toContainText("commerce_account");
  // ... and with Space; a listing shows its query parameters.
  const list = reference.locator('[id="operations-payments-listPaymentInvoices"]');
  const listControl = list.locator(".opblock-summary-control");
  await listControl.focus();
  await page.keyboard.press(" ");
  await expect(listControl).toHaveAttribute("aria-expanded", "true");
  for (const parameter of doc.paths["/api/commerce/payment-invoices"]!.get!.parameters ?? []) {
    await expect(list.locator(`tr[data-param-name="${parameter.name}"]`)).toBeVisible();
  }
  await schemas.getByRole("button", { name: "PaymentInvoiceRequest", exact: true }).click();
  await expect(schemas.locator('article[data-json-schema-level="0"]').first()).toContainText("data");

  await expectNoSeriousViolations(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, "api-reference-1280");
  await create.scrollIntoViewIfNeeded();
  await shoot(page, "api-reference-1280-operation");

  // Phones: the page never scrolls sideways; Swagger's wide blocks scroll inside their own box.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shoot(page, "api-reference-390");
  await create.scrollIntoViewIfNeeded();
  await shoot(page, "api-reference-390-operation");

  // "Try it out" sends to this server (no key here: the API answers 401).
  await page.setViewportSize({ width: 1280, height: 900 });
  await list.getByRole("button", { name: "Try it out" }).click();
  await list.getByRole("button", { name: "Execute" }).click();
  await expect(list.locator(".request-url")).toContainText(`${doc.servers[0]!.url}/api/commerce/payment-invoices`);
  await expect(list.locator(".live-responses-table tbody .response-col_status")).toHaveText("401");

  // The viewer's two files came from this server, once each; nothing was asked of any other.
  expect(viewerFiles.sort()).toEqual([expect.stringMatching(/^\/api\/docs-assets\/[^/]+\/swagger-ui-bundle\.js$/), expect.stringMatching(/^\/api\/docs-assets\/[^/]+\/swagger-ui\.css$/)]);
  expect(outside).toEqual([]);

  await page.goto("/invoices/new");
  await page.locator("#main").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(reference.locator(".opblock")).toHaveCount(expected.length);
  await context.close();
});

test("Try it out starts from a provider's example written for this merchant, and the first request with its key creates the invoice", async ({ browser, page }) => {
  test.slow();
  const merchant = await merchantWithKey(browser);
  const credentials = { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" };
  const connection = await page.request.post("/api/connections", {
    headers: { Authorization: `Bearer ${merchant.apiKey}`, "Content-Type": "application/vnd.api+json" },
    data: { data: { type: "connection", attributes: { provider: "provider-b", kind: "h2h", label: "B reference", mode: "test", credentials, constants: {} } } },
  });
  expect(connection.status(), await connection.text()).toBe(201);
  await signIn(page, merchant.email, merchant.password);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await page.goto("/docs/api");
  const reference = page.getByTestId("api-reference");
  // Swagger UI renders the whole document once its bundle has loaded (seconds on a busy two-core machine).
  await expect(reference.locator(".opblock").first()).toBeVisible({ timeout: 30_000 });
  // One main landmark: the page's own (Swagger's own <main> elements are not landmarks here).
  await expect(page.getByRole("main")).toHaveCount(1);

  await reference.getByRole("button", { name: "Authorize" }).first().click();
  await page.locator(".auth-container input").fill(merchant.apiKey);
  await page.locator(".auth-btn-wrapper").getByRole("button", { name: "Apply credentials" }).click();
  await page.locator(".auth-btn-wrapper").getByRole("button", { name: /Close/ }).click();

  const create = reference.locator('[id="operations-payments-createPaymentInvoice"]');
  await create.locator(".opblock-summary-control").click();
  await create.getByRole("button", { name: "Try it out" }).click();
  // The examples are the providers' example invoices, not values generated from the schema.
  const examples = create.locator(".examples-select select").first();
  await examples.selectOption("b-payment");
  const body = create.locator("textarea.body-param__text");
  await expect(body).toHaveValue(new RegExp(`"commerce_account": "${merchant.commerceAccount}"`));
  const text = await body.inputValue();
  for (const generated of ["additionalProp1", '"AQD"', '"!"', "HTtp://"]) expect(text).not.toContain(generated);
  await create.getByRole("button", { name: "Execute" }).click();
  await expect(create.locator(".live-responses-table tbody .response-col_status").first()).toHaveText("201");
  await expect(create.locator(".live-responses-table tbody .response-col_description")).toContainText('"type": "payment-invoice"');
  await expectNoSeriousViolations(page);
  await shoot(page, "api-reference-try-it-out");
});

test("the viewer's files are served from this origin, keyed by version and cached for good; nothing else is", async ({ request }) => {
  const version = (JSON.parse(fs.readFileSync(path.join(process.cwd(), "node_modules/swagger-ui-dist/package.json"), "utf8")) as { version: string }).version;

  const bundle = await request.get(`/api/docs-assets/${version}/swagger-ui-bundle.js`);
  expect(bundle.status()).toBe(200);
  expect(bundle.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
  expect(bundle.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect((await bundle.text()).length).toBeGreaterThan(100_000);
  const css = await request.get(`/api/docs-assets/${version}/swagger-ui.css`);
  expect(css.status()).toBe(200);
  expect(css.headers()["content-type"]).toBe("text/css; charset=utf-8");
  expect(await css.text()).toContain(".swagger-ui");

  // No session is needed (public library files), but only the allowlisted files of the installed version.
  for (const asset of [
    `/api/docs-assets/0.0.1/swagger-ui-bundle.js`,
    `/api/docs-assets/${version}/package.json`,
    `/api/docs-assets/${version}/swagger-ui-bundle.js.map`,
    `/api/docs-assets/${version}/..%2Fpackage.json`,
    `/api/docs-assets/${version}/index.html`,
  ]) {
    const refused = await request.get(asset);
    expect(refused.status(), asset).toBe(404);
  }
});

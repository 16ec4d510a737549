import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { PAYMENT_EXAMPLES } from "../tests/fixtures/invoices";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import type { Mode } from "../lib/providers/types";
import { createApiKey, signUp, type Account } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";

/**
 * The shell's Test/Live switch decides which mode's connections, invoices and routing
 * orders the dashboard lists; test mode is marked by a coloured banner. Keyboard only, and at a
 * phone's width.
 */
const C_AMD = PAYMENT_EXAMPLES["C: AMD"];
const headers = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}`, "Content-Type": "application/vnd.api+json" });

type Seeded = { account: Account; labels: Record<Mode, string>; invoices: Record<Mode, string> };

async function connect(api: APIRequestContext, apiKey: string, mode: Mode): Promise<string> {
  const label = `C ${mode} ${randomBytes(3).toString("hex")}`;
  const credentials = sampleCredentials("provider-c", "provider_account", mode);
  const response = await api.post("/api/connections", {
    headers: headers(apiKey),
    data: { data: { type: "connection", attributes: { provider: "provider-c", kind: "provider_account", label, mode, credentials } } },
  });
  expect(response.status(), await response.text()).toBe(201);
  return label;
}

async function invoice(api: APIRequestContext, apiKey: string, commerceAccount: string, mode: Mode): Promise<string> {
  const body = structuredClone(C_AMD) as { data: { attributes: Record<string, unknown> } };
  body.data.attributes = {
    ...body.data.attributes,
    commerce_account: commerceAccount,
    reference_id: `view-${mode}-${randomBytes(4).toString("hex")}`,
    test_mode: mode === "test",
  };
  const response = await api.post("/api/commerce/payment-invoices", { headers: headers(apiKey), data: body });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function seed(page: Page): Promise<Seeded> {
  const account = await signUp(page);
  const apiKey = await createApiKey(page);
  const liveKey = await createApiKey(page, "e2e live", { mode: "live" });
  // A key manages its own mode's connections only.
  const labels = { test: await connect(page.request, apiKey, "test"), live: await connect(page.request, liveKey, "live") };
  const invoices = {
    test: await invoice(page.request, apiKey, account.commerceAccount, "test"),
    live: await invoice(page.request, liveKey, account.commerceAccount, "live"),
  };
  return { account, labels, invoices };
}

const viewSwitch = (page: Page) => page.getByRole("button", { name: "Test mode" });
const banner = (page: Page) => page.getByText("Test mode: showing test data");

/** Presses Tab from the top of the page until the switch has focus: what a keyboard user does. */
async function tabToSwitch(page: Page) {
  await page.locator("body").focus();
  for (let n = 0; n < 30; n += 1) {
    await page.keyboard.press("Tab");
    if (await viewSwitch(page).evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error("the Test mode switch was not reached with Tab");
}

/** Each list shows only `mode`'s rows. */
async function expectLists(page: Page, seeded: Seeded, mode: Mode) {
  const other: Mode = mode === "test" ? "live" : "test";
  await page.goto("/connections");
  await expect(page.getByRole("link", { name: seeded.labels[mode] })).toBeVisible();
  await expect(page.getByRole("link", { name: seeded.labels[other] })).toHaveCount(0);
  await page.goto("/invoices");
  await expect(page.locator(`[data-invoice-id="${seeded.invoices[mode]}"]`)).toBeVisible();
  await expect(page.locator(`[data-invoice-id="${seeded.invoices[other]}"]`)).toHaveCount(0);
  await page.goto("/routing");
  const orders = page.getByTestId("routing-order");
  await expect(orders.first()).toBeVisible();
  await expect(orders.filter({ hasText: seeded.labels[mode] })).not.toHaveCount(0);
  await expect(orders.filter({ hasText: seeded.labels[other] })).toHaveCount(0);
  await page.goto("/home");
  await expect(page.getByRole("region", { name: `Recent ${mode} invoices` }).getByRole("link", { name: seeded.invoices[mode] })).toBeVisible();
  await expect(page.getByRole("link", { name: seeded.invoices[other] })).toHaveCount(0);
}

test("switching to live hides test connections, invoices and routing and the banner; switching back, by keyboard only", async ({ page }) => {
  const seeded = await seed(page);
  await expect(viewSwitch(page)).toHaveAttribute("aria-pressed", "true");
  await expect(banner(page)).toBeVisible();
  await expectLists(page, seeded, "test");
  await expectNoSeriousViolations(page);

  // On the invoice list, by keyboard: the page's data follows the view without a reload.
  await page.goto("/invoices");
  await expect(page.locator(`[data-invoice-id="${seeded.invoices.test}"]`)).toBeVisible();
  await tabToSwitch(page);
  await page.keyboard.press("Space");
  await expect(viewSwitch(page)).toHaveAttribute("aria-pressed", "false");
  await expect(viewSwitch(page)).toBeFocused();
  await expect(banner(page)).toHaveCount(0);
  await expect(page.locator(`[data-invoice-id="${seeded.invoices.live}"]`)).toBeVisible();
  await expect(page.locator(`[data-invoice-id="${seeded.invoices.test}"]`)).toHaveCount(0);
  await expectNoSeriousViolations(page);

  await expectLists(page, seeded, "live");

  await tabToSwitch(page);
  await page.keyboard.press("Enter");
  await expect(viewSwitch(page)).toHaveAttribute("aria-pressed", "true");
  await expect(banner(page)).toBeVisible();
  await expect(page.getByRole("region", { name: "Recent test invoices" }).getByRole("link", { name: seeded.invoices.test })).toBeVisible();
  await screenshot(page, "view-mode-test-1280");
});

test("at 390 px the switch is reachable and the home page does not scroll sideways, in either view", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUp(page);
  for (const pressed of ["true", "false"]) {
    await expect(viewSwitch(page)).toHaveAttribute("aria-pressed", pressed);
    await expect(viewSwitch(page)).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, `view-mode-390-${pressed === "true" ? "test" : "live"}`, { fullPage: true });
    if (pressed === "true") {
      await tabToSwitch(page);
      await page.keyboard.press("Space");
      await expect(page.getByRole("heading", { name: "Live invoices by status" })).toBeVisible();
    }
  }
  await expectNoSeriousViolations(page);
});

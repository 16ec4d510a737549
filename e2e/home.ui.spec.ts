import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";
import { addWebhookEndpoint } from "./support/webhooks";

/**
 * Members land on Home. Its setup checklist is ticked from the merchant's real data,
 * each step done where a merchant does it; the counts per status open the filtered list.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };
const STEPS = ["connected", "tested", "apiKey", "paidTestInvoice", "webhook"] as const;

const step = (page: Page, name: (typeof STEPS)[number]) => page.getByTestId(`setup-step-${name}`);

async function expectTicked(page: Page, ticked: readonly (typeof STEPS)[number][]) {
  for (const name of STEPS) await expect(step(page, name)).toContainText(ticked.includes(name) ? "Done" : "To do");
  await expect(page.getByTestId("setup-progress")).toHaveText(`${ticked.length} of ${STEPS.length} steps done`);
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("a new merchant's checklist starts unticked; connecting, testing, a key, a paid test invoice and a webhook endpoint tick every step", async ({ page }) => {
  const { commerceAccount } = await signUp(page);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
  await expectTicked(page, []);
  await expect(step(page, "connected").getByRole("link", { name: "Connect a provider" })).toHaveAttribute("href", "/providers");
  await expect(page.getByText("No test invoices yet.").first()).toBeVisible();
  await expectNoSeriousViolations(page);

  const apiKey = await createApiKey(page);
  const created = await page.request.post("/api/connections", {
    headers: { Authorization: `Bearer ${apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label: `B home ${randomBytes(3).toString("hex")}`,
          mode: "test",
          credentials: { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" },
          constants: {},
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const connectionId = ((await created.json()) as { data: { id: string } }).data.id;
  await page.goto("/home");
  await expectTicked(page, ["connected", "apiKey"]);

  await page.goto(`/connections/${connectionId}`);
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("test-connection-result")).toHaveText("Reachable — credentials accepted");
  await page.goto("/home");
  await expectTicked(page, ["connected", "tested", "apiKey"]);

  const invoice = await page.request.post("/api/commerce/payment-invoices", {
    headers: { Authorization: `Bearer ${apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: commerceAccount,
          currency: "EUR",
          amount: "12.00",
          reference_id: `home-${randomBytes(6).toString("hex")}`,
          flow: "charge",
          test_mode: true,
        },
      },
    },
  });
  expect(invoice.status(), await invoice.text()).toBe(201);
  const { id: invoiceId, attributes } = ((await invoice.json()) as { data: { id: string; attributes: { hpp_url: string } } }).data;
  await page.goto(new URL(attributes.hpp_url).pathname);
  await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
  await page.getByLabel("Cardholder name").fill("Ada Lovelace");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByTestId("pay-result")).toContainText("Payment received");

  await page.goto("/home");
  await expectTicked(page, ["connected", "tested", "apiKey", "paidTestInvoice"]);
  await step(page, "webhook").getByRole("link", { name: "Add a webhook endpoint" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await addWebhookEndpoint(page, "http://127.0.0.1:9/home-hooks");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
  // Setup done: the overview leads and the checklist folds away, one click from view.
  await expect(page.getByRole("heading", { name: "Overview", level: 2 })).toBeVisible();
  await page.getByTestId("setup-done").getByText("Setup checklist (done)").click();
  await expectTicked(page, STEPS);

  // The paid invoice is among the recent ones, and its status count opens the list filtered by it.
  const recent = page.getByRole("region", { name: "Recent test invoices" });
  await expect(recent.getByRole("link", { name: invoiceId })).toHaveAttribute("href", `/invoices/${invoiceId}`);
  const processed = page.getByTestId("status-count-processed");
  await expect(processed).toContainText("1");
  await expect(processed).toHaveAttribute("href", "/invoices?status=processed");
  await processed.click();
  await expect(page).toHaveURL(/\/invoices\?status=processed$/);
  await expect(page.getByLabel("Status")).toHaveValue("processed");
  await expect(page.locator(`[data-invoice-id="${invoiceId}"]`)).toBeVisible();

  await page.goto("/home");
  await page.getByTestId("setup-done").getByText("Setup checklist (done)").click();
  await expectNoSeriousViolations(page);
  await screenshot(page, "home-1280", { fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByTestId("setup-done").getByText("Setup checklist (done)").click();
  await expect(page.getByTestId("setup-progress")).toBeVisible();
  await noSidewaysScroll(page);
  await screenshot(page, "home-390", { fullPage: true });
});

import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { merchantWithKey, signIn } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { liveControl } from "./support/forms-on-use";
import { screenshot } from "./support/screenshots";

/**
 * The Disputes inbox. At 1280 px: a customer pays two test invoices on the hosted
 * page with the dispute card (the sandbox disputes each a second later: playwright.config.ts), the
 * navigation counts them, the list shows them by deadline; on the first the owner writes evidence
 * with the keyboard alone, saves the draft, leaves and finds it kept, uploads a PNG, and submits
 * with the sandbox's winning phrase (the confirmation states amount and deadline) → under review →
 * won; the second is accepted. At 390 px: the menu's count, the page without sideways scrolling, Accept
 * by keyboard. (Support members and live disputes: tests/integration/disputes-actions.test.ts.)
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };
const DISPUTE_CARD = /4000 0000 0000 0259/;
// The smallest PNG a browser shows: a 1×1 pixel.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** A merchant with a Provider B test connection, and `count` invoices of `amount` EUR paid with the dispute card; signed in on `page`. */
async function disputedPayments(browser: Browser, page: Page, amount: string, count: number) {
  const merchant = await merchantWithKey(browser);
  const headers = { Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API };
  const credentials = { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" };
  const connection = await page.request.post("/api/connections", {
    headers,
    data: { data: { type: "connection", attributes: { provider: "provider-b", kind: "h2h", label: "B disputes", mode: "test", credentials, constants: {} } } },
  });
  expect(connection.status(), await connection.text()).toBe(201);
  const invoiceIds: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const created = await page.request.post("/api/commerce/payment-invoices", {
      headers,
      data: {
        data: {
          type: "payment-invoice",
          attributes: {
            service: "payment_card_eur_hpp",
            commerce_account: merchant.commerceAccount,
            currency: "EUR",
            amount,
            reference_id: `dispute-${randomBytes(6).toString("hex")}`,
            flow: "charge",
            test_mode: true,
            customer: { name: "Ada Lovelace", email: "ada@example.com" },
          },
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const invoice = (await created.json()).data as { id: string; attributes: { hpp_url: string } };
    invoiceIds.push(invoice.id);
    await page.goto(new URL(invoice.attributes.hpp_url).pathname);
    await page.getByRole("button", { name: DISPUTE_CARD }).click();
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await expect(page.getByTestId("pay-result")).toContainText("Payment received");
  }
  await signIn(page, merchant.email, merchant.password);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  return { invoiceIds };
}

{
  const viewport = { width: 1280, height: 900 };
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("the owner answers one dispute with evidence (keyboard only) and wins it, and accepts the other", async ({ browser, page }) => {
      const { invoiceIds } = await disputedPayments(browser, page, "42.50", 2);

      // Both disputes open a second after capture: the list shows them, nearest deadline first.
      const open = page.getByRole("table", { name: "Open disputes" });
      await expect(async () => {
        await page.goto("/disputes");
        await expect(open.getByTestId("dispute-row")).toHaveCount(2, { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await expect(open.getByTestId("dispute-row").first()).toContainText("42.50 EUR");
      await expect(open.getByTestId("dispute-row").first()).toContainText("Needs response");
      await expect(open.getByTestId("dispute-row").first()).toContainText(/Due in 6 days 23 hours/);
      await expect(page.getByTestId("nav-count-disputes")).toHaveText("2 need a response");
      await expectNoSeriousViolations(page);
      await screenshot(page, `disputes-list-${viewport.width}`, { fullPage: true });

      // The first: its page names the payment, the customer and the reason in plain words.
      await open.getByTestId("dispute-row").first().getByRole("link").click();
      await expect(page.getByRole("heading", { level: 1, name: /^Dispute dp_/ })).toBeVisible();
      const disputeUrl = page.url();
      await expect(page.getByTestId("dispute-amount")).toHaveText("42.50 EUR");
      await expect(page.getByTestId("dispute-reason")).toHaveText("The cardholder says they did not make this payment.");
      await expect(page.getByTestId("dispute-customer")).toContainText("ada@example.com");
      const payment = page.getByTestId("dispute-payment").getByRole("link", { name: /^cpi_/ });
      expect(invoiceIds).toContain(await payment.textContent());

      // Keyboard only: write, save the draft.
      const explanation = page.getByLabel("Your explanation");
      await explanation.focus();
      await page.keyboard.type("The customer signed for the parcel.");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("evidence-status")).toHaveText("Draft saved. It stays here until you submit it.");

      // Leave and come back: the draft is the server's.
      await page.goto("/disputes");
      await page.goto(disputeUrl);
      await expect(page.getByLabel("Your explanation")).toHaveValue("The customer signed for the parcel.");

      // A PNG goes onto the draft at once (once the form's script is there: a file chosen before is not replayed).
      await liveControl(page.getByLabel("Add a file"));
      await page.getByLabel("Add a file").setInputFiles({ name: "signed-receipt.png", mimeType: "image/png", buffer: PNG });
      await expect(page.getByTestId("file-status")).toHaveText("signed-receipt.png uploaded and added to the draft.");
      await expect(page.getByTestId("evidence-files")).toContainText("signed-receipt.png");

      // Submit with the sandbox's winning phrase, keyboard only: the confirmation states amount and deadline.
      await page.getByLabel("Shipping carrier and tracking number").focus();
      await page.keyboard.type("winning_evidence: DHL 0034");
      await page.getByRole("button", { name: "Submit evidence", exact: true }).focus();
      await page.keyboard.press("Enter");
      const confirmation = page.getByTestId("submit-confirmation");
      await expect(confirmation).toContainText("42.50 EUR");
      await expect(confirmation).toContainText(/takes evidence until \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC \(in 6 days 23 hours/);
      await expect(page.getByRole("button", { name: "Submit evidence now" })).toBeFocused();
      await expectNoSeriousViolations(page);
      await screenshot(page, `dispute-submit-${viewport.width}`, { fullPage: true });
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("dispute-status")).toHaveText(/Under review|Won/);
      const sent = page.getByTestId("evidence-read-only");
      await expect(sent).toContainText("winning_evidence: DHL 0034");
      await expect(sent).toContainText("signed-receipt.png");
      await expect(page.getByLabel("Your explanation")).toHaveCount(0);
      // The sandbox decides a second later and notifies.
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("dispute-status")).toHaveText("Won", { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await expect(page.getByTestId("dispute-outcome")).toContainText("Won.");
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth, "the dispute's page does not scroll sideways").toBeLessThanOrEqual(innerWidth);
      await expectNoSeriousViolations(page);
      await screenshot(page, `dispute-won-${viewport.width}`, { fullPage: true });

      // The other: Accept, after a confirmation stating amount and deadline.
      await page.goto("/disputes");
      await open.getByTestId("dispute-row").first().getByRole("link").click();
      await page.getByRole("button", { name: "Accept dispute", exact: true }).click();
      await expect(page.getByTestId("accept-confirmation")).toContainText("42.50 EUR");
      await expect(page.getByTestId("accept-confirmation")).toContainText("UTC");
      await page.getByRole("button", { name: "Accept dispute now" }).click();
      await expect(page.getByTestId("dispute-status")).toHaveText("Accepted");
      await expect(page.getByTestId("dispute-outcome")).toContainText("Accepted.");
      await page.goto("/disputes");
      await expect(page.getByTestId("no-open-disputes")).toBeVisible();
      await expect(page.getByTestId("nav-count-disputes")).toHaveCount(0);
    });
  });
}

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("on a phone the owner finds the dispute from the menu's count, reads it without sideways scrolling, and accepts it with the keyboard", async ({
    browser,
    page,
  }) => {
    await disputedPayments(browser, page, "19.90", 1);
    const open = page.getByRole("table", { name: "Open disputes" });
    await expect(async () => {
      await page.goto("/disputes");
      await expect(open.getByTestId("dispute-row")).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(page.getByTestId("nav-count-disputes")).toHaveText("1 needs a response");
    await page.getByRole("button", { name: "Menu" }).click();
    await expectNoSeriousViolations(page);
    await screenshot(page, "disputes-list-390", { fullPage: true });

    await open.getByTestId("dispute-row").first().getByRole("link").click();
    await expect(page.getByTestId("dispute-amount")).toHaveText("19.90 EUR");
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth, "the dispute's page does not scroll sideways").toBeLessThanOrEqual(innerWidth);
    await expectNoSeriousViolations(page);
    await screenshot(page, "dispute-390", { fullPage: true });

    await page.getByRole("button", { name: "Accept dispute", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("accept-confirmation")).toContainText("19.90 EUR");
    await page.getByRole("button", { name: "Accept dispute now" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("dispute-status")).toHaveText("Accepted");
  });
});

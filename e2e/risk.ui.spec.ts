import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { merchantWithProviderB, paidPayment, signInOwner, type CardMerchant } from "./support/authorized-payments";
import { screenshot } from "./support/screenshots";

/**
 * Risk at desktop and phone widths: "Block this card" on a paid invoice's page puts the card on the
 * test blocklist; the same card's next Pay on another invoice is refused on the hosted page without
 * a provider; the Risk page shows the card, the blocked attempt with its would-be amount, and adds an
 * entry (by keyboard on the phone); the invoice's timeline names the rule.
 */
async function unpaidInvoice(page: Page, merchant: CardMerchant): Promise<{ id: string; path: string }> {
  const created = await page.request.post("/api/commerce/payment-invoices", {
    headers: { Authorization: `Bearer ${merchant.apiKey}`, "Content-Type": "application/vnd.api+json" },
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: merchant.commerceAccount,
          currency: "EUR",
          amount: "42.00",
          flow: "charge",
          reference_id: `risk-${randomBytes(6).toString("hex")}`,
          test_mode: true,
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const invoice = (await created.json()).data as { id: string; attributes: { hpp_url: string } };
  return { id: invoice.id, path: new URL(invoice.attributes.hpp_url).pathname };
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("Block this card, the refused Pay, and the Risk page", async ({ browser, page }) => {
      test.setTimeout(90_000);
      const merchant = await merchantWithProviderB(browser, page);
      const paidId = await paidPayment(page, merchant, { amount: "25.00", reference: `cus-${randomBytes(4).toString("hex")}`, flow: "charge" });
      await signInOwner(page, merchant);

      await page.goto(`/invoices/${paidId}`);
      const block = page.getByRole("button", { name: "Block this card" });
      if (viewport.width < 768) {
        await block.focus();
        await page.keyboard.press("Enter");
      } else await block.click();
      await expect(page.getByText("Visa •••• 4242 is on the blocklist: its next Pay is refused.")).toBeVisible();

      const next = await unpaidInvoice(page, merchant);
      await page.goto(next.path);
      await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
      await page.getByRole("button", { name: "Pay", exact: true }).click();
      await expect(page.getByTestId("pay-alert")).toHaveText("This payment could not be completed; try again later.");

      await page.goto(`/invoices/${next.id}`);
      await expect(page.getByTestId("timeline-blocked-step")).toContainText("blocked by risk: Card on the blocklist (blocklist_card)");

      await page.goto("/risk");
      await expect(page.getByRole("heading", { level: 1, name: "Risk" })).toBeVisible();
      await expect(page.getByTestId("risk-blocked-summary")).toHaveText("1 attempt blocked, worth 42.00 EUR.");
      await expect(page.getByRole("list", { name: "Blocklist entries" })).toContainText("Card: Visa •••• 4242");
      const value = page.getByLabel("Value");
      await value.fill("203.0.113.0/24");
      await page.getByLabel("What").selectOption("address");
      if (viewport.width < 768) {
        await value.focus();
        await page.keyboard.press("Enter");
      } else await page.getByRole("button", { name: "Add to the blocklist" }).click();
      await expect(page.getByRole("list", { name: "Blocklist entries" })).toContainText("Client address or range: 203.0.113.0/24");
      await expectNoSeriousViolations(page);
      await expectNoSidewaysScroll(page);
      await screenshot(page, `risk-${viewport.width}`, { fullPage: true });
    });
  });
}

import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { merchantWithProviderB, paidPayment, signInOwner, type CardMerchant } from "./support/authorized-payments";
import { screenshot } from "./support/screenshots";

/**
 * Customers and their saved cards, at desktop and phone widths: a customer's payment with
 * tokenize saves the card (Provider B's sandbox keeps it); the Customers page lists the reference
 * with its counts and totals, reached from the navigation, the header's search and the invoice page;
 * the customer's page shows the card, its invoices and totals. The composer charges the saved card
 * (no card typed, no hosted page); the connection's Delete warning counts the card; Remove (keyboard
 * only) detaches it, after which it is unusable, no longer offered, and no longer counted.
 */
async function customerWithSavedCard(
  browser: Parameters<typeof merchantWithProviderB>[0],
  page: Page,
): Promise<{ merchant: CardMerchant; reference: string; invoiceId: string }> {
  const merchant = await merchantWithProviderB(browser, page);
  const reference = `cus-${randomBytes(4).toString("hex")}`;
  const invoiceId = await paidPayment(page, merchant, { amount: "25.00", reference, flow: "charge", saveCard: true });
  await signInOwner(page, merchant);
  return { merchant, reference, invoiceId };
}

/** At a phone's width no page scrolls sideways (long references wrap). */
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

    test("the Customers page, a customer's page, and the ways to it", async ({ browser, page }) => {
      test.setTimeout(90_000);
      const { reference, invoiceId } = await customerWithSavedCard(browser, page);

      // From the navigation (behind the menu on a phone).
      if (viewport.width < 768) await page.getByRole("button", { name: "Menu" }).click();
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Customers" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Customers" })).toBeVisible();
      const row = page.getByTestId("customer-row").filter({ hasText: reference });
      await expect(row.getByTestId("customer-invoices")).toHaveText("1 invoice");
      await expect(row.getByTestId("customer-cards")).toHaveText("1 saved card");
      await expect(row.getByTestId("customer-paid")).toHaveText("Paid 25.00 EUR");
      await expectNoSeriousViolations(page);
      await expectNoSidewaysScroll(page);
      await screenshot(page, `customers-${viewport.width}`, { fullPage: true });

      await row.getByRole("link", { name: reference }).click();
      await expect(page.getByRole("heading", { level: 1, name: `Customer ${reference}` })).toBeVisible();
      const card = page.getByTestId("saved-card");
      await expect(card).toHaveCount(1);
      await expect(card).toContainText("•••• 4242");
      await expect(card).toContainText(/Expires \d{2}\/\d{4}/);
      await expect(card).toContainText("Provider B · B cards");
      await expect(card).toContainText("Usable");
      await expect(page.getByTestId("customer-invoices").getByRole("link", { name: invoiceId })).toBeVisible();
      await expect(page.getByTestId("customer-totals")).toContainText("25.00 EUR");
      await expectNoSeriousViolations(page);
      await expectNoSidewaysScroll(page);
      await screenshot(page, `customer-${viewport.width}`, { fullPage: true });

      // From the header's search: the reference's beginning finds the customer beside the invoices.
      const search = page.getByRole("searchbox", { name: "Search invoices" });
      await search.fill(reference.slice(0, 8));
      await search.press("Enter");
      await expect(page.getByTestId("search-customers").getByRole("link", { name: reference })).toHaveAttribute("href", `/customers/${reference}`);

      // From the invoice page: the customer reference links to its page.
      await page.goto(`/invoices/${invoiceId}`);
      await page.getByTestId("payer-customer-reference").click();
      await expect(page.getByRole("heading", { level: 1, name: `Customer ${reference}` })).toBeVisible();
    });
  });
}

test("the composer charges a saved card; Delete counts the cards it makes unusable; Remove detaches the card, keyboard only", async ({ browser, page }) => {
  test.setTimeout(120_000);
  const { merchant, reference } = await customerWithSavedCard(browser, page);

  // The composer: Charge a saved card for the customer, no card typed, no hosted page.
  await page.goto("/invoices/new");
  await page.getByRole("textbox", { name: /^Amount/ }).fill("12.00");
  // Provider B authorizes now and captures later: "Authorize only" is offered.
  await expect(page.getByRole("combobox", { name: /^Flow/ }).locator("option")).toHaveText(["charge", "Authorize only (capture later)"]);
  await page.getByRole("radio", { name: /^Charge a saved card/ }).check();
  await page.getByRole("textbox", { name: /^Customer reference_id/ }).fill(reference);
  await page.getByRole("button", { name: "Find saved cards" }).click();
  await expect(page.getByTestId("saved-card-lookup")).toHaveText("1 usable saved card found.");
  await expect(page.getByTestId("saved-card-choice").getByRole("radio")).toBeChecked();
  await expect(page.getByText("The card is already saved: nothing to tokenize.")).toBeVisible();
  await expect(page.getByTestId("composer-envelope")).toContainText('"type": "payment-methods"');
  await screenshot(page, "composer-saved-card-1280", { fullPage: true });
  await screenshot(page.getByRole("group", { name: "How the customer pays" }), "composer-saved-card-section-1280");
  await page.getByRole("button", { name: "Send invoice" }).click();
  await expect(page.getByTestId("composer-status")).toHaveText("201");
  const answer = JSON.parse((await page.getByTestId("composer-response").textContent()) ?? "{}") as { data: { id: string; attributes: { status: string } } };
  expect(answer.data.attributes.status).toBe("processed");
  await page.goto(`/customers/${reference}`);
  await expect(page.getByTestId("customer-invoices").getByRole("link")).toHaveCount(2);
  await expect(page.getByTestId("customer-totals")).toContainText("37.00 EUR");

  // The connection that holds the card: Delete says the card becomes unusable.
  await page.goto(`/connections/${merchant.connectionId}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("delete-saved-cards-warning")).toContainText("1 saved card of your customers is held by this connection");
  await page.getByRole("button", { name: "Keep it" }).click();

  // Remove, with the keyboard alone: Escape keeps it, then Enter on Remove card detaches it.
  await page.goto(`/customers/${reference}`);
  const remove = page.getByRole("button", { name: /^Remove .*4242$/ });
  await remove.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alertdialog", { name: /^Remove .*4242\?$/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove card" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(remove).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Remove card" })).toBeFocused();
  await expectNoSeriousViolations(page);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("card-result")).toHaveText(/removed: it can no longer be charged\.$/);
  await expect(page.getByTestId("card-result")).toBeFocused();
  await expect(page.getByTestId("card-unusable")).toContainText("Unusable: removed");
  await expect(page.getByRole("button", { name: /^Remove / })).toHaveCount(0);

  // No longer offered by the composer, no longer counted by Delete.
  await page.goto("/invoices/new");
  await page.getByRole("radio", { name: /^Charge a saved card/ }).check();
  await page.getByRole("textbox", { name: /^Customer reference_id/ }).fill(reference);
  await page.getByRole("button", { name: "Find saved cards" }).click();
  await expect(page.getByTestId("saved-card-lookup")).toHaveText(`No usable saved card of ${reference} in test mode.`);
  await page.goto(`/connections/${merchant.connectionId}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await expect(page.getByTestId("delete-saved-cards-warning")).toHaveCount(0);
});

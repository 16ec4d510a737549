import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { merchantWithProviderB, paidPayment, signInOwner } from "./support/authorized-payments";
import { screenshot } from "./support/screenshots";

/**
 * Authorize now, capture later, on the invoice page at desktop and phone widths: a customer's
 * payment of flow "authorize" is paid on the hosted page (Provider B's sandbox, which captures
 * part); the owner sees what is held and until when, captures part with the mouse (a refusal of
 * more than authorized on the field, a confirmation naming amount and customer), and voids another
 * authorization with the keyboard alone. The status, the section and the timeline follow.
 */
for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("an owner captures part of an authorization, and voids another with the keyboard alone", async ({ browser, page }) => {
      test.setTimeout(90_000);
      const merchant = await merchantWithProviderB(browser, page);
      const customer = `cus-${randomBytes(4).toString("hex")}`;
      const captured = await paidPayment(page, merchant, { amount: "100.00", reference: customer, flow: "authorize" });
      const voided = await paidPayment(page, merchant, { amount: "40.00", reference: customer, flow: "authorize" });
      await signInOwner(page, merchant);

      await page.goto(`/invoices/${captured}`);
      await expect(page.getByTestId("invoice-status")).toHaveText("authorized");
      const section = page.getByTestId("invoice-authorization");
      await expect(section.getByTestId("authorized-amount")).toHaveText("100.00 EUR");
      await expect(section.getByTestId("capture-by")).toHaveText(/^Capture by \d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC — in 6 days 23 hours$/);
      await expect(section.getByRole("link", { name: customer })).toHaveAttribute("href", `/customers/${customer}`);
      await expectNoSeriousViolations(page);
      await screenshot(page, `authorization-${viewport.width}`, { fullPage: true });
      await screenshot(section, `authorization-section-${viewport.width}`);

      // Capture, with the mouse: prefilled with all that is held; more than that is refused on the field.
      await section.getByRole("button", { name: "Capture", exact: true }).click();
      const amount = section.getByLabel("Amount to capture (EUR)");
      await expect(amount).toHaveValue("100.00");
      await expect(section.getByText("Up to 100.00 EUR; capturing less releases the rest.")).toBeVisible();
      await amount.fill("150.00");
      await section.getByRole("button", { name: "Review capture" }).click();
      await expect(section.getByText("amount may be at most the authorized 100.00 EUR")).toBeVisible();
      await expect(amount).toHaveAttribute("aria-invalid", "true");
      await expect(section.getByTestId("capture-confirmation")).toHaveCount(0);
      await amount.fill("60.00");
      await section.getByRole("button", { name: "Review capture" }).click();
      await expect(section.getByTestId("capture-confirmation")).toHaveText(
        "Capture 60.00 EUR from Ada Lovelace? The provider takes this much and releases the rest of the 100.00 EUR held; this cannot be undone.",
      );
      await expect(section.getByRole("button", { name: "Confirm capture" })).toBeFocused();
      await expectNoSeriousViolations(page);
      await screenshot(page, `capture-confirm-${viewport.width}`, { fullPage: true });
      await screenshot(section, `capture-confirm-section-${viewport.width}`);
      await section.getByRole("button", { name: "Confirm capture" }).click();
      await expect(section.getByTestId("authorization-result")).toHaveText("Capture of 60.00 EUR partially processed.");
      await expect(section.getByTestId("authorization-result")).toBeFocused();
      await expect(page.getByTestId("invoice-status")).toHaveText("partially_processed");
      await expect(section.getByTestId("captured-amount")).toHaveText("60.00 EUR");
      await expect(section.getByRole("button", { name: "Capture", exact: true })).toHaveCount(0);
      await expect(section.getByTestId("capture-by")).toHaveCount(0);
      const timeline = page.getByRole("region", { name: "Timeline" });
      await expect(timeline).toContainText("capturing");
      await expect(timeline).toContainText("partially_processed");
      // A capture is followed by refunds as any payment: the Refund form is offered now.
      await expect(page.getByTestId("invoice-refunds").getByRole("button", { name: "Refund", exact: true })).toBeVisible();
      await screenshot(page, `capture-done-${viewport.width}`, { fullPage: true });
      await screenshot(section, `capture-done-section-${viewport.width}`);

      // Void, with the keyboard alone; Escape first takes the confirmation away.
      await page.goto(`/invoices/${voided}`);
      const other = page.getByTestId("invoice-authorization");
      await expect(other.getByTestId("authorized-amount")).toHaveText("40.00 EUR");
      await other.getByRole("button", { name: "Void", exact: true }).focus();
      await page.keyboard.press("Enter");
      await expect(other.getByTestId("void-confirmation")).toHaveText(
        "40.00 EUR held from Ada Lovelace is released and nothing is taken. It cannot be captured afterwards; this cannot be undone.",
      );
      await expect(other.getByRole("button", { name: "Confirm void" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(other.getByTestId("void-confirmation")).toHaveCount(0);
      await other.getByRole("button", { name: "Void", exact: true }).focus();
      await page.keyboard.press("Enter");
      await expect(other.getByRole("button", { name: "Confirm void" })).toBeFocused();
      await expectNoSeriousViolations(page);
      await screenshot(page, `void-confirm-${viewport.width}`, { fullPage: true });
      await screenshot(other, `void-confirm-section-${viewport.width}`);
      await page.keyboard.press("Enter");
      await expect(other.getByTestId("authorization-result")).toHaveText("Void voided: 40.00 EUR released, nothing taken.");
      await expect(other.getByTestId("authorization-result")).toBeFocused();
      await expect(page.getByTestId("invoice-status")).toHaveText("voided");
      await expect(other.getByTestId("authorization-state")).toHaveText("Voided: the authorization was released and nothing was taken.");
      await expect(page.getByRole("region", { name: "Timeline" })).toContainText("voiding");
    });
  });
}

test("a capture the page no longer allows is refused in plain words, and the page shows where the payment is now", async ({ browser, page }) => {
  test.setTimeout(60_000);
  const merchant = await merchantWithProviderB(browser, page);
  const id = await paidPayment(page, merchant, { amount: "20.00", reference: `cus-${randomBytes(4).toString("hex")}`, flow: "authorize" });
  await signInOwner(page, merchant);
  await page.goto(`/invoices/${id}`);
  const section = page.getByTestId("invoice-authorization");
  await section.getByRole("button", { name: "Capture", exact: true }).click();
  await section.getByRole("button", { name: "Review capture" }).click();
  await expect(section.getByTestId("capture-confirmation")).toContainText("Capture 20.00 EUR from Ada Lovelace?");
  // Meanwhile the shop voided it through the API.
  const voided = await page.request.post(`/api/commerce/payment-invoices/${id}/void`, {
    headers: { Authorization: `Bearer ${merchant.apiKey}`, "Content-Type": "application/vnd.api+json" },
    data: { data: { type: "void" } },
  });
  expect(voided.status()).toBe(200);
  await section.getByRole("button", { name: "Confirm capture" }).click();
  await expect(section.getByTestId("authorization-refusal")).toHaveText("This authorization was voided; nothing can be captured.");
  await expect(section.getByTestId("authorization-refusal")).toBeFocused();
  await expect(page.getByTestId("invoice-status")).toHaveText("voided");
  await expect(section.getByRole("button", { name: "Capture", exact: true })).toHaveCount(0);
});

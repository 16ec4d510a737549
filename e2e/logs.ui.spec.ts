import { randomBytes } from "node:crypto";
import { expect } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { apiHeaders } from "./support/connections";
import { sharedTest } from "./support/fixtures";
import { screenshot } from "./support/screenshots";

/**
 * The Logs page as an owner reads it: a request of the test's own (a refund of an invoice that does
 * not exist, its body carrying a card number and a CVC) found by the filter, opened by keyboard,
 * its bodies side by side at 1280 px and stacked at 390 px, with the card number and the CVC gone
 * (the number in free text masked). The shared merchant's log holds other tests' requests too: only this one is asserted.
 */
sharedTest("an owner finds a request in the log, opens it by keyboard and reads its bodies without the card number", async ({ page, merchant }) => {
  const invoiceId = `cpi_e2elog${randomBytes(6).toString("hex")}`;
  const path = `/api/commerce/payment-invoices/${invoiceId}/refunds`;
  const answer = await page.request.post(path, {
    headers: apiHeaders(merchant.apiKey),
    data: {
      data: {
        type: "refund",
        attributes: { amount: "1.00", reference_id: `e2e-${invoiceId}`, card_number: "4111 1111 1111 1111", cvc: "737", reason: "card 4111 1111 1111 1111" },
      },
    },
  });
  // Refused (the invoice does not exist, and a refund takes no card): refusals are logged too.
  const status = answer.status();
  expect([404, 422]).toContain(status);

  await page.goto("/logs");
  await expect(page.getByRole("heading", { level: 1, name: "Logs" })).toBeVisible();
  await page.getByLabel("Path contains").fill(path);
  await page.getByLabel("Status").selectOption("4xx");
  await page.getByLabel("Path contains").press("Enter");
  await expect(page).toHaveURL(/status=4xx/);
  // Written within a second of the answer.
  const link = page.getByTestId("logs-list").getByRole("link", { name: new RegExp(invoiceId) });
  await expect(async () => {
    await page.reload();
    await expect(link).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await expect(page.getByTestId("logs-row")).toHaveCount(1);
  await expectNoSeriousViolations(page);

  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: `POST ${path}` })).toBeVisible();
  const facts = page.getByTestId("log-facts");
  await expect(facts).toContainText(String(status));
  await expect(facts).toContainText(`e2e-${invoiceId}`);
  await expect(facts.getByRole("link", { name: invoiceId })).toBeVisible();
  const requestBody = page.getByTestId("log-request-body");
  const responseBody = page.getByTestId("log-response-body");
  await expect(requestBody).toContainText('"card_number": "[redacted]"');
  await expect(requestBody).toContainText('"cvc": "[redacted]"');
  await expect(requestBody).toContainText("card 411111******1111");
  await expect(requestBody).not.toContainText("4111 1111 1111 1111");
  await expect(responseBody).toContainText('"errors"');
  const [left, right] = [await requestBody.boundingBox(), await responseBody.boundingBox()];
  expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1);
  expect(Math.abs(right!.y - left!.y)).toBeLessThan(2);
  // The bodies scroll by keyboard.
  await requestBody.focus();
  await expect(requestBody).toBeFocused();
  await expectNoSeriousViolations(page);
  await screenshot(page, "logs-entry-1280", { fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  const [top, below] = [await requestBody.boundingBox(), await responseBody.boundingBox()];
  expect(below!.y).toBeGreaterThanOrEqual(top!.y + top!.height);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await screenshot(page, "logs-entry-390", { fullPage: true });
  await page.getByRole("link", { name: "All requests" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Logs" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, "logs-390", { fullPage: true });
});

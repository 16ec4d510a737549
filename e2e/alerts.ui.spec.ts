import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { liveControl } from "./support/forms-on-use";
import { screenshot } from "./support/screenshots";
import { addWebhookEndpoint } from "./support/webhooks";

/**
 * The bell and the Alerts page. At 1280 px an owner finds no alert open, changes the webhook rule
 * to one failed delivery with the keyboard alone, adds an endpoint nobody answers and sends it a
 * test event; the evaluation (every 2 s here: playwright.config.ts) fires the alert, the bell counts
 * it, and the bell, pressed with the keyboard, opens the page with the alert open. At 390 px: the
 * bell and the page without sideways scrolling. Axe on the page with an alert open. (Each rule
 * firing and resolving once: tests/integration/alerts.test.ts.)
 */
test("the bell counts an open alert and the Alerts page shows it, its history and the rules, at 1280 and 390 px", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signUp(page);
  await page.goto("/alerts");
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Alerts: none open" })).toBeVisible();
  await expect(page.getByTestId("no-open-alerts")).toBeVisible();

  // The owner sets the webhook rule to one failed delivery, by keyboard.
  const rule = page.getByRole("form", { name: "Webhook deliveries failing" });
  const inARow = rule.getByLabel(/Failed deliveries in a row/);
  await liveControl(inARow);
  await inARow.focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("1");
  await page.keyboard.press("Tab");
  await expect(rule.getByRole("button", { name: "Save webhook deliveries failing" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(rule.getByRole("status")).toHaveText("Saved: the rule is on.");

  await addWebhookEndpoint(page, "http://127.0.0.1:9/nobody-answers");
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("button", { name: "Send test event" })).toBeEnabled();

  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("link", { name: "Alerts: 1 open" })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByRole("link", { name: "Alerts: 1 open" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/alerts$/);
  const open = page.getByRole("list", { name: "Open alerts" });
  await expect(open.getByTestId("alert-row")).toHaveCount(1);
  await expect(open.getByTestId("alert-row")).toContainText("Webhook endpoint http://127.0.0.1:9/nobody-answers is failing");
  await expect(open.getByTestId("alert-row")).toContainText("Its last delivery failed.");
  await expectNoSeriousViolations(page);
  await screenshot(page, "alerts-1280", { fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole("link", { name: "Alerts: 1 open" })).toBeVisible();
  await expect(page.getByTestId("alert-row")).toHaveCount(1);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await screenshot(page, "alerts-390", { fullPage: true });
});

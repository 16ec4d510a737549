import { expect } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { sharedTest } from "./support/fixtures";

/**
 * The composer for a merchant without the template's provider. Its own file: composer.ui.spec.ts
 * makes its owner in a beforeAll, and a worker whose first test there was a `sharedTest` made that
 * owner's contexts with the shared merchant's storage state (signed in: the sign-up form never
 * came). It showed only when a failure restarted the worker at this test.
 */
// The worker's shared merchant (e2e/support/fixtures.ts) never gets a Provider D connection.
sharedTest("a template whose provider is not connected says to connect it first", async ({ page }) => {
  await page.goto("/invoices/new");
  await page.getByRole("button", { name: /^Provider D payment payment_card/ }).click();
  await expect(page.getByTestId("template-status")).toContainText("Connect Provider D first");
  await expect(page.getByRole("link", { name: "Open Provider D" })).toHaveAttribute("href", "/providers/provider-d");
  await expectNoSeriousViolations(page);
});

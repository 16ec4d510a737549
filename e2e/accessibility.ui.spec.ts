import { expect, test, type BrowserContextOptions } from "@playwright/test";
import { PROVIDERS } from "../lib/providers";
import { signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { expectSaved } from "./support/connections";

// One page per test, so a scan never shares its time limit with another page's.

for (const url of ["/sign-in", "/sign-up"]) {
  test(`${url} has no serious axe violations`, async ({ page }) => {
    await page.goto(url);
    await expectNoSeriousViolations(page);
  });
}

/** Signed in as one owner per worker: signing up again for every page would cost more than the scan. */
const dashboard = test.extend<object, { ownerState: BrowserContextOptions["storageState"] }>({
  ownerState: [
    async ({ browser }, provide, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      await signUp(await context.newPage());
      const state = await context.storageState();
      await context.close();
      await provide(state);
    },
    { scope: "worker", timeout: 120_000 },
  ],
  storageState: async ({ ownerState }, provide) => provide(ownerState),
});

for (const url of ["/providers", "/connections", "/api-keys", "/team", "/settings", "/invoices"]) {
  dashboard(`dashboard page ${url} has no serious axe violations`, async ({ page }) => {
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
}

for (const provider of PROVIDERS) {
  dashboard(`${provider.name}'s overview page has no serious axe violations`, async ({ page }) => {
    await page.goto(`/providers/${provider.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: provider.name })).toBeVisible();
    await expectNoSeriousViolations(page);
  });

  for (const kind of provider.kinds) {
    dashboard(`${provider.name}'s ${kind.label} form showing field errors has no serious axe violations`, async ({ page }) => {
      await page.goto(`/providers/${provider.slug}`);
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByRole("radio", { name: new RegExp(`^${kind.label}`) }).check();
      await page.getByRole("button", { name: "Save connection" }).click();
      // The field's own error and the summary at the top of the form both say it.
      await expect(page.locator(`#new-${kind.kind}-label-error`)).toHaveText("Label is required");
      await expect(page.getByTestId("error-summary").getByRole("link", { name: "Label is required" })).toBeVisible();
      await expectNoSeriousViolations(page);
    });
  }
}

test("a connection can be made with the keyboard alone", async ({ page }) => {
  await signUp(page);
  await page.goto("/providers/provider-b");
  await page.getByRole("button", { name: "Connect" }).focus();
  await page.keyboard.press("Enter");
  const label = page.getByLabel("Label");
  await expect(label).toBeVisible();
  // The kind is preselected for a one-kind provider; Tab order runs kind → label → mode → fields.
  await page.getByRole("radio", { name: /^H2H merchant account/ }).focus();
  await page.keyboard.press("Tab");
  await expect(label).toBeFocused();
  await page.keyboard.type("Keyboard B");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("radio", { name: /^Test/ })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: /^Terminal ID/ })).toBeFocused();
  await page.keyboard.type("TERM-KB");
  await page.keyboard.press("Tab");
  await page.keyboard.type("keyboard-secret-1234");
  await page.keyboard.press("Enter");
  await expectSaved(page, "Keyboard B");
  await expect(page.getByTestId("credential-secret_key")).toHaveText("Set · ••••1234");
});

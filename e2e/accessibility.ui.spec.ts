import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./support/accounts";
import { expectSaved } from "./support/connections";

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("sign-in and sign-up pages have no serious axe violations", async ({ page }) => {
  for (const url of ["/sign-in", "/sign-up"]) {
    await page.goto(url);
    await expectNoSeriousViolations(page);
  }
});

test("dashboard pages have no serious axe violations", async ({ page }) => {
  await signUp(page);
  for (const url of ["/providers", "/connections", "/api-keys", "/team", "/settings", "/invoices"]) {
    await page.goto(url);
    await expectNoSeriousViolations(page);
  }
  await page.goto("/providers/provider-d");
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByRole("button", { name: "Save connection" }).click();
  await expect(page.getByText("Label is required")).toBeVisible();
  await expectNoSeriousViolations(page);
});

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

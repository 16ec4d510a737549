import { expect, type Page } from "@playwright/test";
import { expectSaved, fKeys, fieldError, openConnectForm, save, textbox, uniqueLabel } from "./support/connections";
import { sharedTest as test } from "./support/fixtures";
import { screenshot } from "./support/screenshots";

// Each test makes its own connection (unique label) and checks its constants only: signed in as the
// worker's shared merchant (e2e/support/fixtures.ts).

function editor(page: Page) {
  return page.getByRole("form", { name: "Connection constants" });
}

function previewRow(page: Page, path: string) {
  return page.getByTestId(`preview-${path}`);
}

async function createProviderB(page: Page) {
  await openConnectForm(page, "provider-b", "H2H merchant account");
  const label = uniqueLabel("B constants");
  await page.getByLabel("Label").fill(label);
  await textbox(page, "Terminal ID").fill("TERM-C1");
  await page.getByLabel("Secret key").fill("b-secret-value-CONS");
  await save(page);
  await expectSaved(page, label);
}

test("Provider B: typed validation, live preview with defaults, save, clear, audit trail (spec 2.5, 2.6)", async ({ page }) => {
  await createProviderB(page);
  const form = editor(page);
  await expect(form.getByRole("listitem")).toHaveCount(9);
  await expect(form.getByLabel("Customer city", { exact: true })).toHaveAttribute("placeholder", "Default: London");
  await expect(form.getByLabel("Customer country", { exact: true })).toHaveAttribute("placeholder", "Default: GB");
  await expect(form.getByLabel("Payment page language", { exact: true })).toHaveAttribute("placeholder", "Default: en");
  await expect(form.getByTestId("constant-row-LANG")).toContainText("language");
  await expect(form.getByTestId("constant-row-CITY").locator("code")).toHaveText("customer.address.city");
  await expect(form.getByLabel("Customer phone", { exact: true })).toHaveAttribute("type", "tel");
  await expect(form.getByLabel("Customer e-mail", { exact: true })).toHaveAttribute("type", "email");

  // Invalid values: field errors, and the browser sends nothing.
  await form.getByLabel("Customer country", { exact: true }).fill("XX");
  await form.getByLabel("Customer phone", { exact: true }).fill("020 7946 0958");
  await form.getByRole("button", { name: "Save constants" }).click();
  await expect(fieldError(page, "constant-COUNTRY")).toContainText("ISO 3166-1 two-letter country code");
  await expect(fieldError(page, "constant-PHONE")).toContainText("Enter an international number");
  await expect(form.getByLabel("Customer country", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Customer country", { exact: true })).toHaveAttribute("aria-describedby", /constant-COUNTRY-error/);
  await expect(page.getByTestId("preview-invalid")).toContainText("Customer country, Customer phone");
  await expect(page.getByTestId("audit-trail")).not.toContainText("constants updated");
  await form.getByRole("button", { name: "Clear Customer country" }).click();
  await form.getByRole("button", { name: "Clear Customer phone" }).click();
  await expect(fieldError(page, "constant-COUNTRY")).toHaveText("");

  // The preview follows the editor before anything is saved.
  await expect(previewRow(page, "customer.address.city")).toContainText("London");
  await expect(previewRow(page, "customer.address.city")).toContainText("default");
  await form.getByLabel("Customer city", { exact: true }).fill("Berlin");
  await expect(previewRow(page, "customer.address.city")).toContainText("Berlin");
  await expect(previewRow(page, "customer.address.city")).toContainText("constant");
  await expect(previewRow(page, "customer.address.city")).toContainText("CITY");
  await form.getByLabel("Customer country", { exact: true }).fill("de");
  await expect(previewRow(page, "customer.address.country")).toContainText("DE");

  // A request value wins over the constant.
  await page.getByRole("radio", { name: "Sample invoice with a customer name and city" }).check();
  await expect(previewRow(page, "customer.address.city")).toContainText("Paris");
  await expect(previewRow(page, "customer.address.city")).toContainText("request");
  await page.getByRole("radio", { name: "Sample invoice without a customer" }).check();

  await form.getByRole("button", { name: "Save constants" }).click();
  await expect(form.getByText("Constants saved.")).toBeVisible();
  await expect(form.getByLabel("Customer country", { exact: true })).toHaveValue("DE");
  // The preview is sticky; from the top it sits beside the editor as a reader first sees it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "constants", { fullPage: true });

  await page.reload();
  await expect(editor(page).getByLabel("Customer city", { exact: true })).toHaveValue("Berlin");
  await expect(editor(page).getByLabel("Customer country", { exact: true })).toHaveValue("DE");
  await expect(previewRow(page, "customer.address.city")).toContainText("constant");
  const audit = page.getByTestId("audit-trail");
  await expect(audit).toContainText("constants updated");
  await expect(audit).toContainText("constants.CITY");
  await expect(audit).toContainText("constants.COUNTRY");

  // Clear by keyboard, save: the default takes over again.
  await editor(page).getByRole("button", { name: "Clear Customer city" }).focus();
  await page.keyboard.press("Enter");
  await expect(editor(page).getByLabel("Customer city", { exact: true })).toBeFocused();
  await expect(editor(page).getByLabel("Customer city", { exact: true })).toHaveValue("");
  await expect(previewRow(page, "customer.address.city")).toContainText("London");
  await editor(page).getByRole("button", { name: "Save constants" }).click();
  await expect(editor(page).getByText("Constants saved.")).toBeVisible();
  await page.reload();
  await expect(editor(page).getByLabel("Customer city", { exact: true })).toHaveValue("");
  await expect(previewRow(page, "customer.address.city")).toContainText("London");
  await expect(previewRow(page, "customer.address.city")).toContainText("default");
  await expect(page.getByTestId("audit-trail").locator("li").first()).toContainText("constants.CITY");
});

test("Provider F shows its 11 constants with the targets as the spec gives them", async ({ page }) => {
  await openConnectForm(page, "provider-f", "H2H merchant account");
  const label = uniqueLabel("F constants");
  const keys = fKeys("dev");
  await page.getByLabel("Label").fill(label);
  await textbox(page, "Public key").fill(keys.publicKey);
  await page.getByLabel("Secret key").fill(keys.secretKey);
  await save(page);
  await expectSaved(page, label);
  const form = editor(page);
  await expect(form.getByRole("listitem")).toHaveCount(11);
  await expect(form.getByText("customer.constants.customer_country_phone_code", { exact: true })).toBeVisible();
  await expect(form.getByText("customer.address.first_name", { exact: true })).toBeVisible();
  await expect(form.getByLabel("Customer date of birth", { exact: true })).toHaveAttribute("placeholder", "YYYY-MM-DD");
  await expect(page.getByTestId("preview-empty")).toBeVisible();
});

test("Provider C says it has no connection constants instead of an empty editor", async ({ page }) => {
  await openConnectForm(page, "provider-c", "Provider account");
  const label = uniqueLabel("C constants");
  await page.getByLabel("Label").fill(label);
  await textbox(page, "Shop login").fill("shop-c");
  await page.getByLabel("Shop password").fill("shop-password-c");
  await save(page);
  await expectSaved(page, label);
  await expect(page.getByText("Provider C has no connection constants: invoices go to the provider exactly as sent.")).toBeVisible();
  await expect(editor(page)).toHaveCount(0);
});

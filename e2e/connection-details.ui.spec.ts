import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { expectSaved, fKeys, fieldError, openConnectForm, pair, save, textbox, uniqueLabel, uploadKey } from "./support/connections";
import { sharedTest } from "./support/fixtures";
import { screenshot } from "./support/screenshots";

/** Provider pages, connection details and forms that show every error at once. */
test.use({ viewport: { width: 1280, height: 900 } });

// Each test checks pages and its own connections (unique labels) only, so all but one run signed in as the
// worker's shared merchant (e2e/support/fixtures.ts); the one saving Provider D connections signs up its own
// (one enabled D connection per currency and mode).

/** No "spec 4.1", "spec section 2" or "(spec …)" anywhere in what the merchant reads. */
async function expectNoSpecNumbers(page: Page) {
  await expect(page.locator("main")).not.toContainText(/\bspec(ification)?\s+(section\s+)?\d/i);
}

sharedTest("provider pages: an initials mark per provider and readable service names beside the codes, no spec numbers", async ({ page }) => {
  await page.goto("/providers");
  for (const slug of ["provider-a", "provider-b", "provider-c", "provider-d", "provider-e", "provider-f"]) {
    await expect(page.getByTestId(`provider-mark-${slug}`)).toHaveText(/^P[A-F]$/);
  }
  await expect(page.locator("main")).toContainText("Card payment · UAH · hosted page payment_card_uah_hpp");
  await expect(page.locator("main")).toContainText("Card payout · UAH payment_card_uah");
  await expectNoSpecNumbers(page);
  await expectNoSeriousViolations(page);
  await screenshot(page, "connection-details-providers", { fullPage: true });

  await page.goto("/providers/provider-a");
  await expect(page.getByTestId("provider-mark-provider-a")).toHaveText("PA");
  await expect(page.getByTestId("service-payment_card_uah_hpp")).toHaveText(/Card payment · UAH · hosted page\s*payment_card_uah_hpp/);
  await expectNoSpecNumbers(page);
  await expectNoSeriousViolations(page);
  await screenshot(page, "provider-a", { fullPage: true });
});

sharedTest("Provider D submitted empty with 'Send merchant data' on: every error at once, a summary whose links move focus", async ({ page }) => {
  const form = await openConnectForm(page, "provider-d", "H2H merchant account");
  await page.getByRole("switch", { name: "Send merchant data" }).check();
  await save(page);

  const summary = page.getByTestId("error-summary");
  await expect(summary).toBeFocused();
  await expect(summary.getByRole("heading")).toHaveText("There are 8 problems");
  await expect(summary.getByRole("link")).toHaveText([
    "Label is required",
    "API key is required",
    "Secret key is required",
    "API URL is required",
    "Merchant ID is required",
    "Service ID is required",
    "Merchant category code is required when Send merchant data is on",
    "Merchant URL is required when Send merchant data is on",
  ]);
  // The conditional fields' errors are on their fields at the first submit, not the second.
  await expect(fieldError(page, "new-h2h-merchant_category_code")).toHaveText("Merchant category code is required when Send merchant data is on");
  await expect(fieldError(page, "new-h2h-api_url")).toHaveText("API URL is required");
  await expectNoSeriousViolations(page);
  await screenshot(form, "d-error-summary");

  // Keyboard only: from the focused summary, Tab to a link and Enter moves focus to its field.
  await page.keyboard.press("Tab");
  await expect(summary.getByRole("link").first()).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(textbox(page, "Label")).toBeFocused();
  await summary.getByRole("link", { name: /^Merchant category code/ }).focus();
  await page.keyboard.press("Enter");
  await expect(textbox(page, "Merchant category code")).toBeFocused();
  await page.keyboard.type("5411");
  await summary.getByRole("link", { name: /^Merchant URL/ }).click();
  await expect(textbox(page, "Merchant URL")).toBeFocused();
});

test("Provider D: option values as words, and a connection without features says what it still does", async ({ page }) => {
  await signUp(page);
  const fill = async (label: string, mode: "Test" | "Live") => {
    const form = await openConnectForm(page, "provider-d", "H2H merchant account");
    await textbox(page, "Label").fill(label);
    if (mode === "Live") await form.getByRole("radio", { name: "Live" }).check();
    await page.getByLabel("API key").fill("d-api-key-0001");
    await page.getByLabel("Secret key").fill("d-secret-key-0001");
    await textbox(page, "API URL").fill("https://api.provider-d.example/v1");
    await textbox(page, "Merchant ID").fill("D-M-1");
    await textbox(page, "Service ID").fill("D-S-1");
  };
  const withFeatures = uniqueLabel("D features");
  await fill(withFeatures, "Test");
  await page.getByRole("checkbox", { name: "Payments", exact: true }).check();
  await page.getByRole("checkbox", { name: "Card tokenization", exact: true }).check();
  await save(page);
  await expectSaved(page, withFeatures);
  await expect(page.getByTestId("credential-features")).toHaveText("Payments, card tokenization");

  const none = uniqueLabel("D none");
  await fill(none, "Live");
  await save(page);
  await expectSaved(page, none);
  await expect(page.getByTestId("credential-features")).toContainText("None");
  await expect(page.getByTestId("no-features")).toHaveText("No extra features: it still processes Card payment · UZS · hosted page.");
  await expect(page.getByTestId("connection-services")).toContainText("Card payment · UZS · hosted page payment_card_uzs_hpp");
  await expectNoSpecNumbers(page);
});

sharedTest("Provider E: key files by type and fingerprint, and the public key downloadable from the connection page", async ({ page }) => {
  await openConnectForm(page, "provider-e", "H2H merchant account");
  const label = uniqueLabel("E keys");
  await textbox(page, "Label").fill(label);
  await textbox(page, "Merchant ID").fill("E-M-2");
  await uploadKey(page, "Public key", "public.pem", pair.publicKey);
  await uploadKey(page, "Private key", "private.pem", pair.privateKey);
  await save(page);
  await expectSaved(page, label);

  const publicKey = page.getByTestId("credential-public_key");
  await expect(publicKey).toHaveText(/^RSA \d+ public key · SHA256:[0-9a-f]{16}…$/);
  const fingerprint = (await publicKey.textContent())!.split(" · ")[1]!;
  // The private key shows its public half's fingerprint (the same, as a pair) and nothing of itself.
  await expect(page.getByTestId("credential-private_key")).toHaveText(`Set · RSA 2048 private key · ${fingerprint}`);
  const credentials = page.locator("section[aria-labelledby=credentials]");
  await expect(credentials).not.toContainText("-----");
  await expect(credentials).not.toContainText(/\(\d+ characters\)/);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download public key" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("provider-e-public-key.pem");
  const text = readFileSync((await file.path())!, "utf8");
  expect(text.trim()).toBe(pair.publicKey.trim());
  expect(text).not.toContain("PRIVATE");
  await expectNoSeriousViolations(page);
  await screenshot(page, "e-connection", { fullPage: true });
});

sharedTest("Provider F follows the Test/Live choice: dev keys saved in Test, refused in Live with what Live takes", async ({ page }) => {
  const form = await openConnectForm(page, "provider-f", "H2H merchant account");
  await expect(form.getByRole("switch", { name: /Test mode/ })).toHaveCount(0);
  const keys = fKeys("dev");
  await textbox(page, "Label").fill(uniqueLabel("F live"));
  await form.getByRole("radio", { name: "Live" }).check();
  await textbox(page, "Public key").fill(keys.publicKey);
  await page.getByLabel("Secret key").fill(keys.secretKey);
  // Keyboard only: Enter in the last field submits the form.
  await page.getByLabel("Secret key").press("Enter");
  await expect(fieldError(page, "new-h2h-public_key")).toHaveText("Live mode takes a prod_pub_ key; this one starts with dev_pub_");
  await expect(fieldError(page, "new-h2h-secret_key")).toHaveText("Live mode takes a prod_sec_ key; this one starts with dev_sec_");
  await expect(page.getByTestId("error-summary")).toBeFocused();

  const label = uniqueLabel("F test");
  await textbox(page, "Label").fill(label);
  await form.getByRole("radio", { name: /^Test/ }).check();
  await save(page);
  await expectSaved(page, label);
  await expect(page.locator("main header").getByText("Test", { exact: true })).toBeVisible();
  // Date of birth is typed in the format its help text gives.
  const dob = page.getByRole("form", { name: "Connection constants" }).getByLabel("Customer date of birth", { exact: true });
  await expect(dob).toHaveAttribute("type", "text");
  await expect(dob).toHaveAttribute("placeholder", "YYYY-MM-DD");
});

sharedTest("constants: saved values are in the server HTML; B's defaults mixed with the merchant's own address are flagged", async ({ page, browser }) => {
  await openConnectForm(page, "provider-b", "H2H merchant account");
  const label = uniqueLabel("B mix");
  await textbox(page, "Label").fill(label);
  await textbox(page, "Terminal ID").fill("TERM-MIX");
  await page.getByLabel("Secret key").fill("b-secret-value-MIX1");
  await save(page);
  await expectSaved(page, label);

  const editor = page.getByRole("form", { name: "Connection constants" });
  await expect(page.getByTestId("address-mix-warning")).toHaveCount(0);
  await editor.getByLabel("Customer city", { exact: true }).fill("Berlin");
  const warning = page.getByTestId("address-mix-warning");
  await expect(warning).toContainText("This address mixes your values with Provider B's built-in defaults.");
  await expect(warning).toContainText('Yours: city "Berlin"');
  await expect(warning).toContainText('full address "1 Canada Square, London E14 5AB"');
  await editor.getByRole("button", { name: "Save constants" }).click();
  await expect(editor.getByText("Constants saved.")).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshot(page.locator("section[aria-labelledby=constants]"), "b-constants");

  // Without JavaScript the page shows what the server rendered: the saved value is already there.
  const noJs = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
    viewport: { width: 1280, height: 900 },
  });
  const bare = await noJs.newPage();
  await bare.goto(page.url());
  await expect(bare.locator("#constant-CITY")).toHaveValue("Berlin");
  await expect(bare.locator("#constant-COUNTRY")).toHaveValue("");
  await noJs.close();
});

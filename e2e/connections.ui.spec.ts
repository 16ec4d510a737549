import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./support/accounts";
import { expectSaved, fKeys, fieldError, openConnectForm, otherPair, pair, save, textbox, uniqueLabel, uploadKey } from "./support/connections";
import { sharedTest } from "./support/fixtures";

// Each test makes and checks only its own connections (unique labels), so all but Provider D's run signed
// in as the worker's shared merchant (e2e/support/fixtures.ts). Provider D's allows one enabled
// connection per currency and mode, and that test makes a test and a live one: it signs up its own.

async function fillLabel(page: Page, label: string) {
  await page.getByLabel("Label").fill(label);
}

test.describe("Provider A", () => {
  sharedTest("provider account: key files uploaded, saved, secrets masked", async ({ page }) => {
    await openConnectForm(page, "provider-a", "Provider account");
    const label = uniqueLabel("A account");
    await fillLabel(page, label);
    await textbox(page, "Merchant ID").fill("A-MERCHANT-1");
    await uploadKey(page, "Payment key", "payment.pem", pair.publicKey);
    await uploadKey(page, "Private key", "private.pem", pair.privateKey);
    await textbox(page, "Service code").fill("SVC-77");
    await save(page);
    await expectSaved(page, label);
    await expect(page.getByTestId("credential-merchant_id")).toHaveText("A-MERCHANT-1");
    await expect(page.getByTestId("credential-private_key")).toHaveText(/^Set · .+ private key · SHA256:[0-9a-f]{16}…$/);
    await expect(page.getByTestId("connection-services")).toContainText("Card payment · UAH · hosted page payment_card_uah_hpp");
    await expect(page.getByTestId("connection-services")).toContainText("Card payout · UAH payment_card_uah");
  });

  sharedTest("provider account: a private key offered as the payment key is refused", async ({ page }) => {
    await openConnectForm(page, "provider-a", "Provider account");
    await fillLabel(page, uniqueLabel("A wrong key"));
    await uploadKey(page, "Payment key", "oops.pem", pair.privateKey);
    await expect(fieldError(page, "new-provider_account-payment_key")).toContainText("This is a private key");
  });

  sharedTest("provider account: a payment key from another pair is named by Test connection and refused at save", async ({ page }) => {
    await openConnectForm(page, "provider-a", "Provider account");
    await fillLabel(page, uniqueLabel("A mismatched pair"));
    await textbox(page, "Merchant ID").fill("A-MERCHANT-2");
    await uploadKey(page, "Payment key", "payment.pem", otherPair.publicKey);
    await uploadKey(page, "Private key", "private.pem", pair.privateKey);
    await textbox(page, "Service code").fill("SVC-78");
    await page.getByRole("button", { name: "Test connection" }).click();
    await expect(page.getByTestId("test-connection-result")).toHaveText(
      "Credentials refused — Payment key and Private key are not a pair: the payment key was not made from this private key",
    );
    await save(page);
    await expect(fieldError(page, "new-provider_account-payment_key")).toContainText("Payment key and Private key are not a pair");
    await expect(page).toHaveURL(/\/providers\/provider-a$/);
  });

  sharedTest("a saved connection's mode is shown as fixed, with the way to the other mode", async ({ page }) => {
    await openConnectForm(page, "provider-a", "Provider account");
    const label = uniqueLabel("A fixed mode");
    await fillLabel(page, label);
    await textbox(page, "Merchant ID").fill("A-MERCHANT-3");
    await uploadKey(page, "Payment key", "payment.pem", pair.publicKey);
    await uploadKey(page, "Private key", "private.pem", pair.privateKey);
    await textbox(page, "Service code").fill("SVC-79");
    await save(page);
    await expectSaved(page, label);
    const edit = page.getByRole("form", { name: "Edit connection" });
    await expect(edit.getByRole("radio")).toHaveCount(0);
    await expect(edit.getByTestId("edit-mode")).toHaveText(
      "Test, fixed when the connection was created. To work in live mode, add a new live connection from the provider's page.",
    );
    await edit.getByRole("link", { name: "provider's page" }).click();
    await expect(page).toHaveURL(/\/providers\/provider-a#new-connection$/);
  });

  sharedTest("H2H: API type, currency and features saved", async ({ page }) => {
    await openConnectForm(page, "provider-a", "H2H merchant account");
    const label = uniqueLabel("A h2h");
    await fillLabel(page, label);
    await textbox(page, "Merchant ID").fill("A-H2H-1");
    await uploadKey(page, "Payment key", "payment.pem", pair.publicKey);
    await textbox(page, "Private key").fill(pair.privateKey);
    await textbox(page, "Service code").fill("SVC-H2H");
    await page.getByLabel("API type").selectOption("direct");
    await page.getByRole("checkbox", { name: "Payouts" }).check();
    await save(page);
    await expectSaved(page, label);
    await expect(page.getByTestId("credential-api_type")).toHaveText("Direct (host-to-host)");
    await expect(page.getByTestId("credential-features")).toHaveText("Payouts");
  });

  sharedTest("H2H: an API type must be chosen", async ({ page }) => {
    await openConnectForm(page, "provider-a", "H2H merchant account");
    await fillLabel(page, uniqueLabel("A h2h missing"));
    await save(page);
    await expect(fieldError(page, "new-h2h-api_type")).toContainText("API type");
    await expect(page).toHaveURL(/\/providers\/provider-a$/);
  });
});

test.describe("Provider B", () => {
  sharedTest("H2H saved with its secret masked to the last four", async ({ page }) => {
    await openConnectForm(page, "provider-b", "H2H merchant account");
    const label = uniqueLabel("B");
    await fillLabel(page, label);
    await textbox(page, "Terminal ID").fill("TERM-9");
    await page.getByLabel("Secret key").fill("b-secret-value-WXYZ");
    await save(page);
    await expectSaved(page, label);
    await expect(page.getByTestId("credential-secret_key")).toHaveText("Set · ••••WXYZ");
  });

  sharedTest("a missing secret key is refused", async ({ page }) => {
    await openConnectForm(page, "provider-b", "H2H merchant account");
    await fillLabel(page, uniqueLabel("B missing"));
    await textbox(page, "Terminal ID").fill("TERM-9");
    await save(page);
    await expect(fieldError(page, "new-h2h-secret_key")).toHaveText("Secret key is required");
  });
});

test.describe("Provider C", () => {
  sharedTest("provider account and H2H in AMD saved", async ({ page }) => {
    await openConnectForm(page, "provider-c", "Provider account");
    const account = uniqueLabel("C account");
    await fillLabel(page, account);
    await textbox(page, "Shop login").fill("shop-1");
    await page.getByLabel("Shop password").fill("shop-password-1");
    await save(page);
    await expectSaved(page, account);

    await openConnectForm(page, "provider-c", "H2H merchant account");
    const h2h = uniqueLabel("C h2h");
    await fillLabel(page, h2h);
    await textbox(page, "Shop login").fill("shop-2");
    await page.getByLabel("Shop password").fill("shop-password-2");
    await page.getByRole("combobox", { name: /^Currency/ }).selectOption("AMD");
    await save(page);
    await expectSaved(page, h2h);
    await expect(page.getByText("payment_card_amd_hpp").first()).toBeVisible();
  });

  sharedTest("H2H without a currency is refused, and a duplicate label too", async ({ page }) => {
    await openConnectForm(page, "provider-c", "Provider account");
    const label = uniqueLabel("C dup");
    await fillLabel(page, label);
    await textbox(page, "Shop login").fill("shop-1");
    await page.getByLabel("Shop password").fill("pw-123456");
    await save(page);
    await expectSaved(page, label);

    await openConnectForm(page, "provider-c", "H2H merchant account");
    await fillLabel(page, label.toUpperCase());
    await textbox(page, "Shop login").fill("shop-2");
    await page.getByLabel("Shop password").fill("pw-123456");
    await save(page);
    await expect(fieldError(page, "new-h2h-currency")).toContainText("Currency");
    await page.getByRole("combobox", { name: /^Currency/ }).selectOption("EUR");
    await save(page);
    await expect(fieldError(page, "new-h2h-label")).toContainText("You already have a connection named");
  });
});

test.describe("Provider D", () => {
  async function fillD(page: Page, label: string, mode: "Test" | "Live" = "Test") {
    await openConnectForm(page, "provider-d", "H2H merchant account");
    await fillLabel(page, label);
    if (mode === "Live") await page.getByRole("radio", { name: "Live" }).check();
    await page.getByLabel("API key").fill("d-api-key-0001");
    await page.getByLabel("Secret key").fill("d-secret-key-0001");
    await textbox(page, "API URL").fill("https://api.provider-d.example/v1");
    await textbox(page, "Merchant ID").fill("D-M-1");
    await textbox(page, "Service ID").fill("D-S-1");
  }

  test("toggles: merchant data asks for MCC and URL; P2P saved; a second UZS test connection is refused with the reason", async ({ page }) => {
    await signUp(page);
    const label = uniqueLabel("D");
    await fillD(page, label);
    await page.getByRole("switch", { name: "Send merchant data" }).check();
    await save(page);
    await expect(fieldError(page, "new-h2h-merchant_category_code")).toContainText("Merchant category code is required");
    await textbox(page, "Merchant category code").fill("5411");
    await textbox(page, "Merchant URL").fill("https://shop.example");
    await page.getByRole("switch", { name: "P2P mode" }).check();
    await save(page);
    await expectSaved(page, label);
    await expect(page.getByTestId("credential-p2p")).toHaveText("On");
    await expect(page.getByTestId("credential-merchant_category_code")).toHaveText("5411");

    await fillD(page, uniqueLabel("D second"));
    await save(page);
    await expect(fieldError(page, "new-h2h-currency")).toContainText("separate merchant ID and credential set per currency");

    const live = uniqueLabel("D live");
    await fillD(page, live, "Live");
    await save(page);
    await expectSaved(page, live);
  });
});

test.describe("Provider E", () => {
  sharedTest("generates a key pair in the form, offers the public key, keeps the private key in the vault", async ({ page }) => {
    await openConnectForm(page, "provider-e", "H2H merchant account");
    const label = uniqueLabel("E");
    await fillLabel(page, label);
    await textbox(page, "Merchant ID").fill("E-M-1");
    await page.getByRole("button", { name: "Generate key pair" }).click();
    await expect(page.getByRole("link", { name: "Download public key" })).toBeVisible();
    await expect(textbox(page, "Public key")).toHaveValue(/-----BEGIN PUBLIC KEY-----/);
    await expect(textbox(page, "Private key")).toHaveValue("");
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download public key" }).click();
    expect((await download).suggestedFilename()).toBe("provider-e-public-key.pem");
    await page.getByRole("switch", { name: "Ignore callbacks" }).check();
    await save(page);
    await expectSaved(page, label);
    await expect(page.getByTestId("credential-private_key")).toHaveText(/^Set · .+ private key · SHA256:[0-9a-f]{16}…$/);
    await expect(page.getByTestId("credential-ignore_callback")).toHaveText("On");
  });

  sharedTest("uploaded keys that are not a pair are refused", async ({ page }) => {
    await openConnectForm(page, "provider-e", "H2H merchant account");
    await fillLabel(page, uniqueLabel("E mismatch"));
    await textbox(page, "Merchant ID").fill("E-M-2");
    await uploadKey(page, "Public key", "public.pem", otherPair.publicKey);
    await uploadKey(page, "Private key", "private.pem", pair.privateKey);
    await save(page);
    await expect(fieldError(page, "new-h2h-public_key")).toContainText("are not a pair");
  });
});

test.describe("Provider F", () => {
  sharedTest("dev keys in test mode saved; the form says the secret is shown once", async ({ page }) => {
    await openConnectForm(page, "provider-f", "H2H merchant account");
    await expect(page.getByText("The provider shows the secret key only once", { exact: false })).toBeVisible();
    const label = uniqueLabel("F");
    const keys = fKeys("dev");
    await fillLabel(page, label);
    await textbox(page, "Public key").fill(keys.publicKey);
    await page.getByLabel("Secret key").fill(keys.secretKey);
    await save(page);
    await expectSaved(page, label);
    await expect(page.locator("main header").getByText("Test", { exact: true })).toBeVisible();
    await expect(page.getByTestId("credential-public_key")).toHaveText(keys.publicKey);
    await expect(page.getByTestId("credential-secret_key")).toHaveText(`Set · ••••${keys.secretKey.slice(-4)}`);
  });

  sharedTest("prod keys in test mode are refused with what was expected", async ({ page }) => {
    await openConnectForm(page, "provider-f", "H2H merchant account");
    const keys = fKeys("prod");
    await fillLabel(page, uniqueLabel("F wrong"));
    await textbox(page, "Public key").fill(keys.publicKey);
    await page.getByLabel("Secret key").fill(keys.secretKey);
    await save(page);
    await expect(fieldError(page, "new-h2h-secret_key")).toContainText("Test mode takes a dev_sec_ key");
  });
});

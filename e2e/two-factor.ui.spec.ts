import { expect, test, type Page } from "@playwright/test";
import { generate } from "otplib";
import { signIn, signUp } from "./support/accounts";
import { screenshot } from "./support/screenshots";

/**
 * Two-factor sign-in as a person sets it up: the secret read from the page (as an authenticator
 * app would take it from the QR code), codes computed here with otplib; then signing in with a
 * code and with a recovery code, and the owner requirement switched on. Its own merchant: it signs
 * out and in.
 */
const codeAt = (secret: string, offsetSeconds: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

test("enrol with an authenticator app, sign in with a code and with a recovery code, then require two-factor for owners", async ({ page }) => {
  const account = await signUp(page);

  await page.goto("/settings");
  await page.getByRole("link", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Two-factor authentication" })).toBeVisible();
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: /QR code of your two-factor secret/ })).toBeVisible();
  const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s+/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await screenshot(page, "two-factor-enrol-1280", { fullPage: true });

  // A wrong code is refused on its field; the app's code turns it on.
  const right = await codeAt(secret, 0);
  await page.getByLabel("6-digit code").fill(right === "123456" ? "654321" : "123456");
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(page.getByText("This code is not right")).toBeVisible();
  await page.getByLabel("6-digit code").fill(right);
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  await screenshot(page, "two-factor-recovery-codes-1280", { fullPage: true });
  await page.getByRole("button", { name: "I have saved my recovery codes" }).click();
  await expect(page.getByTestId("mfa-status")).toContainText("10 of 10 recovery codes are unused");
  // The secret is not on the page any more.
  await expect(page.locator("body")).not.toContainText(secret.slice(0, 8));

  // Password alone: the second step, no session yet.
  await signOut(page);
  await signIn(page, account.email, account.password);
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
  await screenshot(page, "sign-in-second-step-1280", { fullPage: true });
  await page.getByLabel("Authentication code").fill(right);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByText("This code is not right or was already used")).toBeVisible();
  await page.getByLabel("Authentication code").fill(await codeAt(secret, 30));
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

  // A recovery code, once.
  await signOut(page);
  await signIn(page, account.email, account.password);
  await page.getByLabel("Authentication code").fill(recovery[0]!);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

  // The owner requirement, now that this owner has two-factor on.
  await page.goto("/settings");
  await page.getByLabel("Require two-factor authentication for owners").check();
  await page.getByRole("button", { name: "Save security settings" }).click();
  await expect(page.getByText("Saved: Owners must now use two-factor authentication.")).toBeVisible();
  await screenshot(page, "settings-security-1280", { fullPage: true });
  await page.goto("/settings/two-factor");
  await expect(page.getByText("stays on")).toBeVisible();
  await expect(page.getByTestId("mfa-status")).toContainText("9 of 10 recovery codes are unused");

  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "two-factor-manage-390", { fullPage: true });
  await page.goto("/settings");
  await screenshot(page, "settings-390", { fullPage: true });
  await page.getByRole("button", { name: "Menu" }).click();
  await signOut(page);
  await signIn(page, account.email, account.password);
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await screenshot(page, "sign-in-second-step-390", { fullPage: true });
  await page.getByLabel("Authentication code").fill(recovery[0]!);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByText("This code is not right or was already used")).toBeVisible();
  await page.getByLabel("Authentication code").fill(recovery[1]!);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
});

import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { generate } from "otplib";
import { signIn, signUp } from "./support/accounts";
import { waitForHydration } from "./support/dev-server";
import { screenshot } from "./support/screenshots";

/**
 * Two-factor sign-in as a person sets it up: the current password, the secret read from the page
 * (as an authenticator app would take it from the QR code), codes computed here with otplib; then
 * signing in with a code and with a recovery code, the owner requirement switched on and off, and
 * two-factor turned off. Turning it on and off signs the person out in every other browser. Its
 * own merchant: it signs out and in.
 */
const codeAt = (secret: string, offsetSeconds: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}

/** Another browser signed in to the account (with a recovery code when two-factor is on). */
async function otherBrowser(browser: Browser, email: string, password: string, recoveryCode?: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  if (recoveryCode) {
    await page.getByLabel("Authentication code").fill(recoveryCode);
    await page.getByRole("button", { name: "Verify and sign in" }).click();
  }
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await page.close();
  return context;
}

/** The other browser's session has ended: its next page is the sign-in form. */
async function expectSignedOut(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto("/home");
  await expect(page).toHaveURL(/\/sign-in/);
  await page.close();
  await context.close();
}

test("enrol with an authenticator app, sign in with a code and with a recovery code, require two-factor for owners, then turn it off", async ({
  page,
  browser,
}) => {
  const account = await signUp(page);
  const elsewhere = await otherBrowser(browser, account.email, account.password);

  await page.goto("/settings");
  await page.getByRole("link", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Two-factor authentication" })).toBeVisible();
  // The current password first: a wrong one is refused under its field.
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByText("Current password is required")).toBeVisible();
  await page.getByLabel("Current password").fill("not-my-password-1");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByText("The current password is not correct")).toBeVisible();
  await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Current password").fill(account.password);
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
  // Turning it on signed the other browser out; this one stays signed in.
  await expectSignedOut(elsewhere);
  await page.goto("/settings/two-factor");
  await expect(page.getByTestId("mfa-status")).toBeVisible();

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

  // Turning it off: the requirement off first, then the password and a recovery code.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/settings");
  // Unticked before React hydrates the form, the box is ticked again by it and the save keeps the requirement.
  await waitForHydration(page, 'form[aria-label="Security settings"]');
  await page.getByLabel("Require two-factor authentication for owners").uncheck();
  await page.getByRole("button", { name: "Save security settings" }).click();
  await expect(page.getByText("Saved: Two-factor authentication is optional for owners.")).toBeVisible();
  const stillElsewhere = await otherBrowser(browser, account.email, account.password, recovery[2]);
  await page.goto("/settings/two-factor");
  await waitForHydration(page, 'form[aria-label="Turn off two-factor authentication"]');
  await page.getByLabel("Code from your app or a recovery code").fill(recovery[3]!);
  await page.getByLabel("Current password").fill("not-my-password-1");
  await page.getByRole("button", { name: "Turn off two-factor authentication" }).click();
  await expect(page.getByText("The current password is not correct")).toBeVisible();
  await expect(page.getByTestId("mfa-status")).toContainText("7 of 10 recovery codes are unused");
  await page.getByLabel("Current password").fill(account.password);
  await page.getByRole("button", { name: "Turn off two-factor authentication" }).click();
  await expect(page.getByText("Two-factor authentication is off.")).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("link", { name: "Set up two-factor authentication" })).toBeVisible();
  // Turning it off signed the other browser out too; this one stays signed in.
  await expectSignedOut(stillElsewhere);
  await page.goto("/home");
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
});

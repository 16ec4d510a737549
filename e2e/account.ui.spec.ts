import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { newAccount, signIn, signUp, submitSignUpForm } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { waitForHydration } from "./support/dev-server";
import { linkFromOutbox } from "./support/mail";
import { screenshot } from "./support/screenshots";

/**
 * Account self-service. Change password and business name in Settings, a forgotten
 * password through the e-mailed link, and members invited by e-mail choosing their own password.
 * The e2e server keeps mail in its outbox (MAIL_OUTBOX_PAGE=1, playwright.config.ts); the tests
 * read the links there.
 */
test.use({ viewport: { width: 1280, height: 900 } });

const newPassword = () => `new-pass-${randomBytes(4).toString("hex")}7`;

test("Sign-up without SMTP: 'Check your e-mail' says the message is in the outbox and links there; the outbox holds it", async ({ page }) => {
  const account = newAccount();
  await page.goto("/sign-up");
  await waitForHydration(page, "form");
  await submitSignUpForm(page, account);
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  // The e2e server has no SMTP_URL and serves /outbox (playwright.config.ts): the page says where the message is.
  const where = page.getByTestId("sign-up-outbox");
  await expect(where).toContainText("This server does not send e-mail (no SMTP_URL is set)");
  await expect(where).toContainText(account.email);
  await expectNoSeriousViolations(page);
  await screenshot(page, "sign-up-check-outbox", { fullPage: true });
  await where.getByRole("link", { name: "outbox" }).click();
  await expect(page).toHaveURL(/\/outbox$/);
  await expect(page.getByTestId("outbox-message").filter({ hasText: account.email }).first()).toContainText("sign-up/confirm");
});

test("Settings: the owner renames the business and changes the password by keyboard; only the new password signs in", async ({ page, browser }) => {
  const account = await signUp(page);
  await page.goto("/settings");
  // Filled before React hydrates the form, the text can land after the server-rendered name instead of replacing it.
  await waitForHydration(page, 'form[aria-label="Edit business name"]');

  await page.getByRole("textbox", { name: /^Business name/ }).fill("Renamed Trading Ltd");
  await page.getByRole("button", { name: "Save business name" }).click();
  await expect(page.getByText("Saved: the business name is now Renamed Trading Ltd.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Merchant" }).getByText("Renamed Trading Ltd", { exact: true })).toBeVisible();
  await page.getByRole("textbox", { name: /^Business name/ }).fill(" ");
  await page.getByRole("button", { name: "Save business name" }).click();
  await expect(page.getByText("Business name is required")).toBeVisible();

  const password = newPassword();
  await page.getByLabel(/^Current password/).focus();
  await page.keyboard.type("not-my-password-1");
  await page.keyboard.press("Tab");
  await page.keyboard.type(password);
  await page.keyboard.press("Tab");
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await expect(page.getByText("The current password is not correct")).toBeVisible();
  await expect(page.getByLabel(/^Current password/)).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(account.password);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Password changed. Use the new one next time you sign in.")).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshot(page, "settings-account", { fullPage: true });

  // A fresh browser: only the new password signs in.
  const context = await browser.newContext();
  const fresh = await context.newPage();
  await signIn(fresh, account.email, account.password);
  await expect(fresh.getByText("Wrong e-mail or password.")).toBeVisible();
  await signIn(fresh, account.email, password);
  await expect(fresh.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await context.close();
});

test("forgotten password: the same answer for anyone, the e-mailed link sets a new password once, then sign-in works", async ({ page, browser }) => {
  const account = await (async () => {
    const context = await browser.newContext();
    const created = await signUp(await context.newPage());
    await context.close();
    return created;
  })();

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
  const unknown = `nobody-${randomBytes(4).toString("hex")}@example.com`;
  await page.getByLabel("E-mail").fill(unknown);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByText(`If ${unknown} has an account, a link to reset its password is on its way. It works once, for 30 minutes.`)).toBeVisible();
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("E-mail").press("Enter");
  await expect(page.getByText(`If ${account.email} has an account, a link to reset its password is on its way. It works once, for 30 minutes.`)).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshot(page, "forgot-password", { fullPage: true });

  const link = await linkFromOutbox(page, account.email, "reset-password");
  await expect(page.getByTestId("outbox-message").filter({ hasText: unknown })).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await screenshot(page, "outbox", { fullPage: true });

  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  await expect(page.getByText(`For ${account.email}.`)).toBeVisible();
  const password = newPassword();
  await page.getByLabel(/^New password/).fill(password);
  await page.getByLabel(/^Confirm new password/).fill(`${password}x`);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("The passwords do not match")).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshot(page, "reset-password", { fullPage: true });
  await page.getByLabel(/^Confirm new password/).fill(password);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL(/\/sign-in\?notice=password-reset$/);
  await expect(page.getByText("Your password is changed. Sign in with the new one.")).toBeVisible();

  await signIn(page, account.email, password);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

  // The link worked once: opened again it says so plainly.
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Reset link not valid" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ask for a new link" })).toBeVisible();
  await screenshot(page, "reset-password-used", { fullPage: true });
});

test("the owner invites a member by e-mail; the member sets their name and password and lands signed in as support; a revoked invitation is gone", async ({
  page,
  browser,
}) => {
  await signUp(page);
  await page.goto("/team");
  const email = `sam-${randomBytes(4).toString("hex")}@example.com`;
  await page.getByLabel("Name").fill("Sam Support");
  await page.getByLabel("E-mail").fill(email);
  await page.locator("#member-role").selectOption("support");
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page.getByText(`Invitation sent to ${email}. The link works once, for 7 days.`)).toBeVisible();
  await expect(page.getByTestId("pending-invite").filter({ hasText: email })).toBeVisible();

  const other = `pat-${randomBytes(4).toString("hex")}@example.com`;
  await page.getByLabel("Name").fill("Pat Later");
  await page.getByLabel("E-mail").fill(other);
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page.getByTestId("pending-invite").filter({ hasText: other })).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshot(page, "team-invites", { fullPage: true });
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: `Revoke invitation to ${other}` }).click();
  await expect(page.getByTestId("pending-invite").filter({ hasText: other })).toHaveCount(0);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const member = await context.newPage();
  const link = await linkFromOutbox(member, email, "invite");
  await member.goto(link);
  await expect(member.getByRole("heading", { level: 1, name: /^Join Owner [0-9a-f]+ Ltd$/ })).toBeVisible();
  await waitForHydration(member, 'form[aria-label="Join your team"]');
  await expect(member.getByLabel(/^Your name/)).toHaveValue("Sam Support");
  await expectNoSeriousViolations(member);
  await screenshot(member, "invite-accept", { fullPage: true });
  await member.setViewportSize({ width: 390, height: 844 });
  await screenshot(member, "invite-accept-390", { fullPage: true });
  await member.setViewportSize({ width: 1280, height: 900 });
  const password = newPassword();
  await member.getByLabel(/^Your name/).fill("Samantha Support");
  await member.getByLabel(/^New password/).fill(password);
  await member.getByLabel(/^Confirm new password/).fill(password);
  await member.getByLabel(/^Confirm new password/).press("Enter");
  // Joined and signed in at once: Home, as the name they chose, with a support member's navigation.
  await expect(member.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await expect(member).toHaveURL(/\/home$/);
  await expect(member.getByTestId("viewer-name")).toHaveText("Samantha Support");
  await expect(member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" })).toHaveCount(0);
  await screenshot(member, "invite-landed-home", { fullPage: true });
  await member.setViewportSize({ width: 390, height: 844 });
  await screenshot(member, "invite-landed-home-390", { fullPage: true });
  // The link worked once; the password chosen signs in anywhere else.
  await member.goto(link);
  await expect(member.getByRole("heading", { level: 1, name: "Invitation not valid" })).toBeVisible();
  await context.close();
  const elsewhere = await browser.newContext();
  const again = await elsewhere.newPage();
  await signIn(again, email, password);
  await expect(again.getByTestId("viewer-name")).toHaveText("Samantha Support");
  await elsewhere.close();

  await page.reload();
  await expect(page.getByRole("row").filter({ hasText: email })).toContainText("Support");
  await expect(page.getByTestId("pending-invite")).toHaveCount(0);

  // At 390 px the tables scroll inside their cards, never the page sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

import { expect, test } from "@playwright/test";
import { PASSWORD, newAccount, signIn, signUp, submitSignUpForm } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { waitForHydration } from "./support/dev-server";
import { inviteMember, linkFromOutbox } from "./support/mail";
import { screenshot } from "./support/screenshots";

test.describe("sign-up", () => {
  test("a new merchant signs up and confirms in the same browser without typing the password again; elsewhere the link asks for it and opening it uses nothing up", async ({
    page,
    browser,
  }) => {
    const account = newAccount();
    await page.goto("/sign-up");
    await waitForHydration(page, "form");
    await submitSignUpForm(page, account);
    await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
    const link = await linkFromOutbox(page, account.email, "sign-up/confirm");

    // Another browser (another device, a mail scanner) opens it first: it is asked for the password, and nothing is used up.
    const elsewhere = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const other = await elsewhere.newPage();
    await other.goto(link);
    await expect(other.getByRole("heading", { level: 1, name: "Finish creating your account" })).toBeVisible();
    await expect(other.getByLabel(/^Password/)).toBeVisible();
    await screenshot(other, "sign-up-confirm-elsewhere-390", { fullPage: true });
    await elsewhere.close();

    await page.goto(link);
    await waitForHydration(page, 'form[aria-label="Finish creating your account"]');
    await expect(page.getByText("Press the button to create it; you are signed in at once.")).toBeVisible();
    await expect(page.getByLabel(/^Password/)).toHaveCount(0);
    await expectNoSeriousViolations(page);
    await screenshot(page, "sign-up-confirm-same-browser", { fullPage: true });
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await expect(page.getByTestId("viewer-name")).toHaveText(account.name);
    await expect(page.getByTestId("viewer-merchant")).toHaveText(`${account.name} Ltd`);
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page.getByText(account.commerceAccount, { exact: true })).toBeVisible();
  });

  test("weak password and malformed e-mail get field errors before anything is sent", async ({ page }) => {
    await page.goto("/sign-up");
    await page.getByLabel("Your name").fill("Bob");
    await page.getByLabel("E-mail").fill("bob-at-example");
    await page.getByLabel("Password").fill("short");
    await page.getByLabel("Business name").fill("Bob Ltd");
    await page.getByLabel("Commerce account").fill("Bad Name!");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Enter a valid e-mail address, like name@example.com")).toBeVisible();
    await expect(page.getByText("Password must be at least 10 characters")).toBeVisible();
    await expect(page.getByText(/Commerce account takes lowercase letters/)).toBeVisible();
    await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/sign-up$/);
  });

  test("a duplicate commerce account is refused on its field; a registered e-mail gets the same answer as a new one and creates nothing", async ({
    page,
    browser,
  }) => {
    const first = await signUp(page);
    const other = await browser.newContext();
    const second = await other.newPage();
    const fill = async (email: string, commerceAccount: string) => {
      await second.goto("/sign-up");
      await second.getByLabel("Your name").fill("Copy Cat");
      await second.getByLabel("E-mail").fill(email);
      await second.getByLabel("Password").fill("another-pass-77");
      await second.getByLabel("Business name").fill("Copy Ltd");
      await second.getByLabel("Commerce account").fill(commerceAccount);
      await second.getByRole("button", { name: "Create account" }).click();
    };
    await fill(first.email.toUpperCase(), first.commerceAccount);
    await expect(second.getByText("This commerce account is taken")).toBeVisible();
    await expect(second.getByText(/already exists/)).toHaveCount(0);

    // Whether the e-mail has an account is told to its owner only, by e-mail.
    await fill(first.email.toUpperCase(), newAccount().commerceAccount);
    await expect(second.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
    await expect(second.getByRole("status")).toContainText(first.email);
    await expect(second.getByText(/already (exists|has an account|registered)/)).toHaveCount(0);
    // The refused attempt's password opens nothing.
    await signIn(second, first.email, "another-pass-77");
    await expect(second.getByTestId("form-alert")).toHaveText("Wrong e-mail or password.");
    await other.close();
  });
});

test.describe("sign-in and sign-out", () => {
  test("signs in, refuses a wrong password, and signs out", async ({ page, browser }) => {
    const account = await signUp(page);
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto("/providers");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fproviders/);

    await signIn(page, account.email, "wrong-password-1");
    await expect(page.getByTestId("form-alert")).toHaveText("Wrong e-mail or password.");
    await expect(page).toHaveURL(/\/sign-in/);

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByTestId("viewer-name")).toHaveText(account.name);

    const stranger = await browser.newPage();
    await signIn(stranger, newAccount().email, PASSWORD);
    await expect(stranger.getByTestId("form-alert")).toHaveText("Wrong e-mail or password.");
    await stranger.close();
  });

  test("a form sent before its script runs never puts the password into the address", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const [path, button] of [
      ["/sign-in", "Sign in"],
      ["/sign-up", "Create account"],
    ] as const) {
      await page.goto(path);
      await page.getByLabel("Password").fill("no-js-secret-pass-1");
      await page.getByRole("button", { name: button }).click();
      await page.waitForLoadState("load");
      expect(page.url()).not.toContain("no-js-secret-pass-1");
      expect(page.url()).not.toContain("password");
    }
    await context.close();
  });
});

test.describe("roles", () => {
  test("a support member reads invoices but cannot open owner-only pages", async ({ page, browser }) => {
    await signUp(page);
    await page.getByRole("link", { name: "Team" }).click();
    const email = `support-${Date.now()}@example.com`;
    await inviteMember(page, browser, { name: "Sam Support", email, role: "support" }, "support-pass-99");
    await page.reload();
    await expect(page.getByRole("cell", { name: email })).toBeVisible();

    const context = await browser.newContext();
    const support = await context.newPage();
    await signIn(support, email, "support-pass-99");
    await expect(support).toHaveURL(/\/home$/);
    const nav = support.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Invoices" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Providers" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "API keys" })).toHaveCount(0);
    for (const path of ["/providers", "/connections", "/api-keys", "/team", "/providers/provider-f"]) {
      await support.goto(path);
      await expect(support.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
    }
    await context.close();
  });
});

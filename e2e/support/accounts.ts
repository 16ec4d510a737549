import { randomBytes } from "node:crypto";
import { expect, type Browser, type Page } from "@playwright/test";
import { waitForHydration } from "./dev-server";
import { linkFromOutbox } from "./mail";

export const PASSWORD = "correct-horse-42";

export type Account = { email: string; password: string; commerceAccount: string; name: string };

export function newAccount(): Account {
  const id = randomBytes(5).toString("hex");
  return { email: `owner-${id}@example.com`, password: PASSWORD, commerceAccount: `acct-${id}`, name: `Owner ${id}` };
}

export async function signUp(page: Page, account: Account = newAccount()): Promise<Account> {
  await page.goto("/sign-up");
  await submitSignUpForm(page, account);
  await finishSignUp(page, account);
  return account;
}

/** Fills the sign-up form already open on `page` for `account` and presses Create account. */
export async function submitSignUpForm(page: Page, account: Account): Promise<void> {
  await page.getByLabel("Your name").fill(account.name);
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByLabel("Business name").fill(`${account.name} Ltd`);
  await page.getByLabel("Commerce account").fill(account.commerceAccount);
  await page.getByRole("button", { name: "Create account" }).click();
}

/**
 * Sign-up answers "Check your e-mail" (it never says whether the address has an account);
 * the account is created from the e-mailed link. Opened in the browser that signed up (as here) it
 * asks no password; in another it asks for the one chosen (`account.password`). Lands on Home.
 */
export async function finishSignUp(page: Page, account: Pick<Account, "email" | "password">, timeout = 10_000): Promise<void> {
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible({ timeout });
  await page.goto(await linkFromOutbox(page, account.email, "sign-up/confirm", Math.max(timeout, 15_000)), { timeout });
  await waitForHydration(page, 'form[aria-label="Finish creating your account"]');
  const password = page.getByLabel("Password");
  if (await password.count()) await password.fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible({ timeout });
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Creates an API key on the API keys page and returns it as shown once: a test key with full access
 * unless asked otherwise (live invoices need a live key).
 */
export async function createApiKey(page: Page, name = "e2e", options: { mode?: "test" | "live"; readOnly?: boolean } = {}): Promise<string> {
  const mode = options.mode ?? "test";
  await page.goto("/api-keys");
  await page.getByLabel("Key name").fill(name);
  await page.getByRole("radio", { name: mode === "live" ? /^Live/ : /^Test/ }).check();
  await page.getByRole("radio", { name: options.readOnly ? /^Read only/ : /^Full access/ }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent())?.trim();
  expect(key).toMatch(mode === "live" ? /^pok_live_/ : /^pok_test_/);
  return key!;
}

/** A fresh merchant with an API key, made through the browser as a user would. */
export async function merchantWithKey(browser: Browser): Promise<Account & { apiKey: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const account = await signUp(page);
  const apiKey = await createApiKey(page);
  await context.close();
  return { ...account, apiKey };
}

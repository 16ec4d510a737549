import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { PASSWORD, signIn, signUp, type Account } from "./support/accounts";
import { waitForHydration } from "./support/dev-server";
import { inviteMember, linkFromOutbox } from "./support/mail";

/**
 * Against the real server: a session cookie copied before
 * sign-out, a password change or reset, or the member's removal is refused afterwards by pages, the
 * session APIs and server actions; `next` never leaves the site; a server action cannot pass the
 * origin check with a forged X-Forwarded-Host.
 */
test.use({ viewport: { width: 1280, height: 900 } });

/** A second browser holding a copy of `from`'s cookies: what someone who copied them could do. */
async function copyOfSession(browser: Browser, from: BrowserContext): Promise<BrowserContext> {
  const copy = await browser.newContext();
  await copy.addCookies(await from.cookies());
  return copy;
}

async function expectSignedIn(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto("/home");
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await page.close();
  const session = await context.request.get("/api/auth/session");
  expect((await session.json())?.user?.id).toMatch(/^usr_/);
}

async function expectRefused(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto("/home");
  await expect(page).toHaveURL(/\/sign-in/);
  await page.close();
  expect(await (await context.request.get("/api/auth/session")).json()).toBeNull();
  expect((await context.request.get("/api/dashboard/invoices")).status()).toBe(401);
}

async function renameBusiness(page: Page, name: string) {
  await page.goto("/settings");
  // Filled before React hydrates the form, the text can land after the server-rendered name instead of replacing it.
  await waitForHydration(page, 'form[aria-label="Edit business name"]');
  await page.getByRole("textbox", { name: /^Business name/ }).fill(name);
  await page.getByRole("button", { name: "Save business name" }).click();
  await expect(page.getByText(`Saved: the business name is now ${name}.`)).toBeVisible();
}

async function signInAndLand(context: BrowserContext, email: string, password: string) {
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/home$/);
  await page.close();
}

test("a cookie copied before sign-out is refused after it by pages, session APIs and server actions", async ({ page, browser }) => {
  const account = await signUp(page);
  await renameBusiness(page, "Current Name Ltd");
  const copy = await copyOfSession(browser, page.context());
  await expectSignedIn(copy);
  // A Settings page opened with the copied cookie while it still worked: its form calls the server action later.
  const stale = await copy.newPage();
  await stale.goto("/settings");
  await expect(stale.getByRole("textbox", { name: /^Business name/ })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  // The page's form sends the server action with the copied cookie: refused, nothing saved.
  await stale.getByRole("textbox", { name: /^Business name/ }).fill("Renamed By Copy Ltd");
  await stale.getByRole("button", { name: "Save business name" }).click();
  await expect(stale.getByText("Your session has ended. Sign in again.")).toBeVisible();
  await expectRefused(copy);
  // Refusing the cookie also removed it from that browser: the same form now sends no session at all, with the same answer.
  expect((await copy.cookies()).some((c) => c.name.endsWith("authjs.session-token"))).toBe(false);
  const answer = stale.waitForResponse((r) => r.request().method() === "POST" && Boolean(r.request().headers()["next-action"]));
  await stale.getByRole("button", { name: "Save business name" }).click();
  expect((await answer).status()).toBe(200);
  await expect(stale.getByText("Your session has ended. Sign in again.")).toBeVisible();
  await copy.close();

  // Nothing was renamed.
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto("/settings");
  await expect(page.getByRole("textbox", { name: /^Business name/ })).toHaveValue("Current Name Ltd");
});

test("a password change ends every other session and keeps this one; a reset ends all", async ({ page, browser }) => {
  const account = await signUp(page);
  const other = await browser.newContext();
  await signInAndLand(other, account.email, account.password);
  await expectSignedIn(other);
  const copyOfThis = await copyOfSession(browser, page.context());

  const password = `changed-${randomBytes(4).toString("hex")}7`;
  await page.goto("/settings");
  await page.getByLabel(/^Current password/).fill(account.password);
  await page.getByLabel(/^New password/).fill(password);
  await page.getByLabel(/^Confirm new password/).fill(password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText(/Password changed/)).toBeVisible();

  await expectRefused(other);
  // Even this browser's cookie from before the change is refused; the browser itself got a new one.
  await expectRefused(copyOfThis);
  await expectSignedIn(page.context());
  await other.close();
  await copyOfThis.close();

  // A password reset through the e-mailed link ends the sessions that are left, this one included.
  const resetter = await browser.newContext();
  const resetPage = await resetter.newPage();
  await resetPage.goto("/forgot-password");
  await resetPage.getByLabel("E-mail").fill(account.email);
  await resetPage.getByRole("button", { name: "Send reset link" }).click();
  await expect(resetPage.getByText(/a link to reset its password is on its way/)).toBeVisible();
  await resetPage.goto(await linkFromOutbox(resetPage, account.email, "reset-password"));
  const reset = `reset-${randomBytes(4).toString("hex")}7`;
  await resetPage.getByLabel(/^New password/).fill(reset);
  await resetPage.getByLabel(/^Confirm new password/).fill(reset);
  await resetPage.getByRole("button", { name: "Set new password" }).click();
  await expect(resetPage).toHaveURL(/notice=password-reset/);
  await expectRefused(page.context());
  await resetter.close();
});

test("a removed member's session ends at once", async ({ page, browser }) => {
  await signUp(page);
  const member = { name: "Removed Member", email: `removed-${randomBytes(4).toString("hex")}@example.com`, role: "support" as const };
  await inviteMember(page, browser, member, PASSWORD);
  const memberContext = await browser.newContext();
  await signInAndLand(memberContext, member.email, PASSWORD);
  await expectSignedIn(memberContext);

  await page.goto("/team");
  page.once("dialog", (dialog) => void dialog.accept());
  await page
    .getByRole("row", { name: new RegExp(member.email) })
    .getByRole("button", { name: "Remove", exact: true })
    .click();
  await expect(page.getByRole("row", { name: new RegExp(member.email) })).toHaveCount(0);
  await expectRefused(memberContext);
  await memberContext.close();
});

test("next after sign-in stays on this site, whatever its spelling", async ({ page, browser }) => {
  const account: Account = await (async () => {
    const context = await browser.newContext();
    const created = await signUp(await context.newPage());
    await context.close();
    return created;
  })();
  for (const next of ["/\\evil.example", "//evil.example", "/%5Cevil.example", "https://evil.example/", "/\t/evil.example"]) {
    const context = await browser.newContext();
    const visitor = await context.newPage();
    await visitor.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await visitor.getByLabel("E-mail").fill(account.email);
    await visitor.getByLabel("Password").fill(account.password);
    await visitor.getByRole("button", { name: "Sign in" }).click();
    await expect(visitor).toHaveURL(/\/home$/);
    expect(new URL(visitor.url()).hostname, next).toBe("127.0.0.1");
    await context.close();
  }
  // A path of this site is kept.
  await page.goto(`/sign-in?next=${encodeURIComponent("/invoices?status=paid")}`);
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/invoices\?status=paid$/);
});

test("a server action with a forged Origin and X-Forwarded-Host is refused; the same one from this site works", async ({ page, browser }) => {
  const account: Account = await (async () => {
    const context = await browser.newContext();
    const created = await signUp(await context.newPage());
    await context.close();
    return created;
  })();
  // Record the sign-in action as the browser sends it.
  await page.goto("/sign-in");
  const recorded = page.waitForRequest((r) => r.method() === "POST" && Boolean(r.headers()["next-action"]));
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const request = await recorded;
  await expect(page).toHaveURL(/\/home$/);

  const headers = Object.fromEntries(
    Object.entries(await request.allHeaders()).filter(
      ([name]) => !["cookie", "content-length", "host", "origin", "referer"].includes(name) && !name.startsWith(":"),
    ),
  );
  const send = async (extra: Record<string, string>) => {
    const context = await browser.newContext();
    const response = await context.request.post(request.url(), {
      headers: { ...headers, ...extra },
      data: request.postDataBuffer() ?? undefined,
      maxRedirects: 0,
    });
    const cookies = await context.cookies();
    await context.close();
    return { status: response.status(), signedIn: cookies.some((c) => c.name.endsWith("authjs.session-token")) };
  };
  const forged = await send({ Origin: "https://evil.example", "X-Forwarded-Host": "evil.example" });
  expect(forged.signedIn).toBe(false);
  expect(forged.status).toBeGreaterThanOrEqual(400);
  const sameSite = await send({ Origin: new URL(request.url()).origin });
  expect(sameSite.signedIn).toBe(true);
});

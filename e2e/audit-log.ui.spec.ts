import { expect } from "@playwright/test";
import { sharedTest } from "./support/fixtures";
import { screenshot } from "./support/screenshots";
import { signIn } from "./support/accounts";

/**
 * The audit log as an owner reads it: a few changes of the test's own (an API key made and
 * revoked), then filtered by type, person and date. The shared merchant's log holds other tests'
 * entries too, so only this test's own entries are asserted.
 */
sharedTest("an owner's changes appear in the audit log, newest first, and the filters narrow it", async ({ page, merchant }) => {
  const keyName = `audit ${Date.now().toString(36)}`;
  await page.goto("/api-keys");
  await page.getByLabel("Key name").fill(keyName);
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-api-key")).toBeVisible();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.locator("tr, li").filter({ hasText: keyName }).getByRole("button", { name: "Revoke" }).click();
  await expect(page.locator("tr, li").filter({ hasText: keyName })).toContainText(/revoked/i);

  await page.getByRole("navigation").getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  const mine = page.getByTestId("audit-log").getByRole("listitem").filter({ hasText: keyName });
  await expect(mine).toHaveCount(2);

  await page.getByLabel("Type").selectOption({ label: "API keys" });
  await page.getByLabel("Who").selectOption({ label: `${merchant.account.name} <${merchant.account.email}>` });
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel("From (days in UTC)").fill(today);
  await page.getByLabel("To (days in UTC)").fill(today);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/group=api_key/);
  const entries = page.getByTestId("audit-log").getByRole("listitem");
  for (const action of await entries.evaluateAll((items) => items.map((item) => item.getAttribute("data-action")))) expect(action).toMatch(/^api_key\./);
  // Newest first: the revoke above the create.
  const texts = await mine.allTextContents();
  expect(texts[0]).toContain("API key revoked");
  expect(texts[1]).toContain("API key created");
  await expect(page.getByText(/sk_|pok_/)).toHaveCount(0);
  await screenshot(page, "audit-log-1280", { fullPage: true });

  // A date range without entries.
  await page.getByLabel("To (days in UTC)").fill("2001-01-01");
  await page.getByLabel("From (days in UTC)").fill("2001-01-01");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("audit-empty")).toHaveText("No entries match this filter.");
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(mine).toHaveCount(2);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/audit-log?group=api_key");
  await expect(mine).toHaveCount(2);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await screenshot(page, "audit-log-390", { fullPage: true });
});

sharedTest("a date outside 1970 to 9999 in the address is named on the page, not an error, and 9999-12-31 works as the last day", async ({ page }) => {
  await page.goto("/audit-log?from=0000-01-01");
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await expect(page.locator("#audit-from-error")).toHaveText("Enter a date between 1970-01-01 and 9999-12-31");
  await expect(page.getByTestId("audit-log")).toBeVisible();

  await page.goto("/audit-log?to=9999-12-31");
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await expect(page.locator("#audit-to-error")).toBeEmpty();
  await expect(page.getByTestId("audit-log")).toBeVisible();
});

sharedTest("the audit log filters by action and person without a script, and exports what the filter shows as CSV", async ({ browser, merchant }) => {
  // A sign-in of this test's own (the shared merchant's session came from signing up).
  const signingIn = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const signInPage = await signingIn.newPage();
  await signIn(signInPage, merchant.account.email, merchant.account.password);
  await expect(signInPage.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  const storageState = await signingIn.storageState();
  await signingIn.close();
  // No JavaScript: the filter is a plain GET form, the export a plain link.
  const context = await browser.newContext({ javaScriptEnabled: false, storageState });
  const page = await context.newPage();
  await page.goto("/audit-log");
  await page.getByLabel("Action").selectOption({ label: "Signed in" });
  await page.getByLabel("Who").selectOption({ label: `${merchant.account.name} <${merchant.account.email}>` });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=auth\.signed_in/);
  const entries = page.getByTestId("audit-log").getByRole("listitem");
  await expect(entries.first()).toContainText("Signed in");
  for (const action of await entries.evaluateAll((items) => items.map((item) => item.getAttribute("data-action")))) expect(action).toBe("auth.signed_in");
  await screenshot(page, "audit-log-filtered-1280", { fullPage: true });

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-export").click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await new Promise<string>((resolve, reject) => {
    void download.createReadStream().then((stream) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      stream.on("error", reject);
    });
  });
  expect(text.startsWith("\uFEFFtime,who_type,who_id,who,action,what,summary,")).toBe(true);
  const rows = text.trim().split("\r\n").slice(1);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row).toContain(",auth.signed_in,Signed in,");
  // ISO 8601 with the zone's offset.
  expect(rows[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2},user,/);

  // The export is in the log itself.
  await page.goto("/audit-log?action=export.audit_log");
  await expect(entries.first()).toContainText("Audit log exported as CSV");
  await context.close();
});

import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { sharedTest } from "./support/fixtures";
import { expectSaved, fKeys, openConnectForm, save, textbox, uniqueLabel } from "./support/connections";
import { screenshot } from "./support/screenshots";

// Only its own connection (unique label) matters: the worker's shared merchant (e2e/support/fixtures.ts).
sharedTest(
  "edit keeps a blank secret, disable survives an edit, Test connection reaches the sandbox, delete asks first; the audit trail names fields only",
  async ({ page }) => {
    await openConnectForm(page, "provider-b", "H2H merchant account");
    const label = uniqueLabel("B life");
    await page.getByLabel("Label").fill(label);
    await textbox(page, "Terminal ID").fill("TERM-1");
    await page.getByLabel("Secret key").fill("first-secret-AAAA");
    await save(page);
    await expectSaved(page, label);
    await screenshot(page, "connection-page", { fullPage: true });

    const edit = page.getByRole("form", { name: "Edit connection" });
    await expect(edit.getByLabel("Secret key")).toHaveValue("");
    await expect(edit.getByText("Stored (••••AAAA). Leave blank to keep it.")).toBeVisible();
    await edit.getByRole("textbox", { name: /^Terminal ID/ }).fill("TERM-2");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(edit.getByText("Changes saved.")).toBeVisible();
    await expect(page.getByTestId("credential-terminal_id")).toHaveText("TERM-2");
    await expect(page.getByTestId("credential-secret_key")).toHaveText("Set · ••••AAAA");

    await edit.getByLabel("Secret key").fill("second-secret-BBBB");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByTestId("credential-secret_key")).toHaveText("Set · ••••BBBB");

    await page.getByRole("button", { name: "Disable" }).click();
    await expect(page.getByText("Disabled", { exact: true })).toBeVisible();
    await edit.getByRole("textbox", { name: /^Label/ }).fill(`${label} renamed`);
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("heading", { level: 1, name: `${label} renamed` })).toBeVisible();
    await expect(page.getByText("Disabled", { exact: true })).toBeVisible();

    await page.getByRole("button", { name: "Test connection" }).click();
    await expect(page.getByTestId("test-connection-result")).toHaveText("Reachable — credentials accepted");

    const audit = page.getByTestId("audit-trail");
    await expect(audit).toContainText("created");
    await expect(audit).toContainText("credentials.secret_key (replaced)");
    await expect(audit).toContainText("disabled");
    await expect(audit).not.toContainText("second-secret");
    await expect(audit).not.toContainText("first-secret");

    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText("Invoices can no longer be routed to it for payment_card_eur_hpp");
    await dialog.getByRole("button", { name: "Keep it" }).click();
    await expect(dialog).toHaveCount(0);
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete connection" }).click();
    await expect(page).toHaveURL(/\/connections$/);
    await expect(page.getByRole("link", { name: `${label} renamed` })).toHaveCount(0);
  },
);

// Counts connections and switches the Test/Live view (kept per merchant): a merchant of its own.
test("the connections list filters by provider, mode and state", async ({ page }) => {
  await signUp(page);
  const f = uniqueLabel("F test");
  await openConnectForm(page, "provider-f", "H2H merchant account");
  const keys = fKeys("dev");
  await page.getByLabel("Label").fill(f);
  await textbox(page, "Public key").fill(keys.publicKey);
  await page.getByLabel("Secret key").fill(keys.secretKey);
  await save(page);
  await expectSaved(page, f);
  const c = uniqueLabel("C live");
  await openConnectForm(page, "provider-c", "Provider account");
  await page.getByLabel("Label").fill(c);
  await page.getByRole("radio", { name: "Live" }).check();
  await textbox(page, "Shop login").fill("shop");
  await page.getByLabel("Shop password").fill("pw-123456");
  await save(page);
  await expectSaved(page, c);
  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByText("Disabled", { exact: true })).toBeVisible();

  // The list shows the dashboard's Test/Live view, test first.
  await page.goto("/connections");
  await expect(page.getByRole("link", { name: f })).toBeVisible();
  await expect(page.getByRole("link", { name: c })).toHaveCount(0);
  const testMode = page.getByRole("button", { name: "Test mode" });
  await testMode.click();
  await expect(testMode).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByRole("link", { name: c })).toBeVisible();
  await expect(page.getByRole("link", { name: f })).toHaveCount(0);
  await page.goto("/connections?provider=provider-c");
  await expect(page.getByRole("link", { name: c })).toBeVisible();
  await page.goto("/connections?state=enabled");
  await expect(page.getByRole("link", { name: c })).toHaveCount(0);
  await testMode.click();
  await expect(testMode).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("link", { name: f })).toBeVisible();
  await expect(page.getByRole("link", { name: c })).toHaveCount(0);
  await page.goto("/connections?provider=provider-c");
  await expect(page.getByRole("link", { name: f })).toHaveCount(0);
  await page.goto("/providers");
  await expect(page.getByTestId("count-provider-f")).toHaveText("1");
  await expect(page.getByTestId("count-provider-c")).toHaveText("1");
  await screenshot(page, "connection-lifecycle-providers", { fullPage: true });
});

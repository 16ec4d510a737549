import { randomBytes } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { expectNoSeriousViolations } from "./support/axe";
import { sharedTest as test } from "./support/fixtures";
import { screenshot } from "./support/screenshots";

/**
 * API keys as a merchant handles them: a read-only test key is made and shown once, it reads but
 * may not write, Roll key makes its replacement with a grace period the old key shows, and Revoke
 * stops the old key at once. On a desktop and on a phone.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

const readPayments = (page: Page, key: string) =>
  page.request.get("/api/commerce/payment-invoices", { headers: { Authorization: `Bearer ${key}`, ...JSON_API } });

for (const [width, height] of [
  [1280, 900],
  [390, 844],
] as const) {
  test(`create a read-only test key, see it once, roll it with a grace period, revoke the old one (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const name = `roll-${width}-${randomBytes(3).toString("hex")}`;
    await page.goto("/api-keys");
    await page.getByLabel("Key name").fill(name);
    await page.getByRole("radio", { name: /^Test/ }).check();
    await page.getByRole("radio", { name: /^Read only/ }).check();
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByTestId("new-api-key");
    const oldKey = (await shown.textContent())!.trim();
    expect(oldKey).toMatch(/^pok_test_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole("button", { name: "Copy key" })).toBeVisible();
    await screenshot(page, `api-keys-created-${width}`, { fullPage: true });
    await page.getByRole("button", { name: "Done" }).click();
    await expect(shown).toHaveCount(0);

    // It reads; it may not write.
    expect((await readPayments(page, oldKey)).status()).toBe(200);
    const write = await page.request.post("/api/commerce/payment-invoices", { headers: { Authorization: `Bearer ${oldKey}`, ...JSON_API }, data: {} });
    expect([write.status(), (await write.json()).errors[0].code]).toEqual([403, "insufficient_scope"]);

    // Shown once: after a reload only the prefix and the last four remain, with its mode, access and last use.
    await page.reload();
    expect(await page.content()).not.toContain(oldKey);
    const rows = page.getByTestId("api-key-row").filter({ hasText: name });
    await expect(rows).toHaveCount(1);
    const row = rows.first();
    await expect(row.getByText(`pok_test_••••${oldKey.slice(-4)}`)).toBeVisible();
    await expect(row.getByText("Test", { exact: true })).toBeVisible();
    await expect(row.getByText("Read only", { exact: true })).toBeVisible();
    await expect(row.getByTestId("api-key-last-used")).toHaveText("Last used just now");
    await expect(row.getByTestId("api-key-last-used").locator("time")).toHaveAttribute("title", /UTC$/);

    // Roll, keeping the old key for 24 hours.
    await row.getByRole("button", { name: "Roll" }).click();
    const dialog = page.getByRole("dialog", { name: `Roll “${name}”` });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Old key keeps working for").selectOption({ label: "24 hours" });
    await screenshot(page, `api-keys-roll-dialog-${width}`);
    // The page behind is inert while the dialog is open; the dialog itself passes axe.
    if (width === 1280) await expectNoSeriousViolations(page);
    await dialog.getByRole("button", { name: "Roll key" }).click();
    const newKey = (await dialog.getByTestId("new-api-key").textContent())!.trim();
    expect(newKey).toMatch(/^pok_test_/);
    expect(newKey).not.toBe(oldKey);
    await screenshot(page, `api-keys-rolled-${width}`);
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();

    await expect(rows).toHaveCount(2);
    const oldRow = rows.filter({ hasText: `••••${oldKey.slice(-4)}` });
    const newRow = rows.filter({ hasText: `••••${newKey.slice(-4)}` });
    await expect(oldRow.getByTestId("api-key-expiry")).toHaveText("Rolled: expires in 24 hours");
    await expect(oldRow.getByRole("button", { name: "Roll" })).toHaveCount(0);
    await expect(newRow.getByText("Active")).toBeVisible();
    await expect(newRow.getByText("Read only", { exact: true })).toBeVisible();
    await expect(newRow.getByTestId("api-key-last-used")).toHaveText("Never used");
    await screenshot(page, `api-keys-list-${width}`, { fullPage: true });
    expect((await readPayments(page, oldKey)).status()).toBe(200);
    expect((await readPayments(page, newKey)).status()).toBe(200);

    // Revoke the old one after confirming: refused at once.
    page.once("dialog", (confirm) => void confirm.accept());
    await oldRow.getByRole("button", { name: "Revoke" }).click();
    await expect(oldRow.getByText(/^Revoked /)).toBeVisible();
    expect((await readPayments(page, oldKey)).status()).toBe(401);
    expect((await readPayments(page, newKey)).status()).toBe(200);
  });
}

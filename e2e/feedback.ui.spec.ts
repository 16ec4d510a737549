import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import type { ConnectionKind } from "../lib/providers/types";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";

/**
 * Each confirmation appears in the toast region (a polite
 * live region, so it is announced), offers its next step as a working link, survives the
 * router.refresh that follows the action, and is dismissed with the keyboard.
 */
test.describe.configure({ mode: "serial" });

let page: Page;
let apiKey: string;

/** The announced region: role=status inside the "Notifications" landmark. */
const toasts = (p: Page) => p.getByRole("region", { name: /^Notifications/ }).getByRole("status");
const toast = (p: Page, text: string) => toasts(p).getByTestId("toast").filter({ hasText: text });

async function connect(api: APIRequestContext, provider: string, kind: ConnectionKind, label: string) {
  const attributes = { provider, kind, label, mode: "test", credentials: sampleCredentials(provider, kind, "test") };
  const response = await api.post("/api/connections", {
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/vnd.api+json" },
    data: { data: { type: "connection", attributes } },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signUp(page);
  apiKey = await createApiKey(page, "billing system");
});

test("creating an API key is confirmed (key still shown once), announced, and its next step opens the API reference; Alt+T and Escape dismiss", async () => {
  const created = toast(page, 'API key "billing system" created.');
  await expect(created).toBeVisible();
  await expect(page.getByTestId("new-api-key")).toHaveText(apiKey);
  // Not stealing focus: the form keeps it.
  expect(await page.evaluate(() => document.activeElement?.closest("[data-testid=toast]") ?? null)).toBeNull();
  await screenshot(page, "toast-api-key-created");
  await expectNoSeriousViolations(page);

  // Keyboard: Alt+T reaches the newest toast, Tab its next step, Escape dismisses it.
  await page.keyboard.press("Alt+t");
  await expect(created).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(created.getByRole("link", { name: "Read the API reference" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(created).toHaveCount(0);

  await page.getByLabel("Key name").fill("second");
  await page.getByRole("button", { name: "Create key" }).click();
  const second = toast(page, 'API key "second" created.');
  await second.getByRole("link", { name: "Read the API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  // A click on the next step also closes its toast.
  await expect(second).toHaveCount(0);
});

test("revoking a key is confirmed; the Dismiss button closes the toast", async () => {
  await page.goto("/api-keys");
  const row = page.getByRole("listitem", { name: "second", exact: true });
  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: "Revoke" }).click();
  const revoked = toast(page, 'API key "second" revoked.');
  await expect(revoked).toContainText("now get 401");
  // Still there after the page's router.refresh() re-rendered the list.
  await expect(row).toContainText("Revoked");
  await expect(revoked).toBeVisible();
  await revoked.getByRole("button", { name: "Dismiss notification" }).focus();
  await page.keyboard.press("Enter");
  await expect(revoked).toHaveCount(0);
});

test("saving a routing order and the routing settings is confirmed, with a next step to send a test invoice", async ({ request }) => {
  const run = randomBytes(3).toString("hex");
  await connect(request, "provider-b", "h2h", `B ${run}`);
  await connect(request, "provider-f", "h2h", `F ${run}`);
  await page.goto("/routing");
  const list = page.locator('[data-testid="routing-order"][data-order-id="payment_card_eur_hpp:test"]');
  await list.getByRole("button", { name: `Move F ${run} up` }).click();
  await list.getByRole("button", { name: "Save order" }).click();
  const saved = toast(page, `Routing order saved. New test-mode payment_card_eur_hpp invoices go to F ${run}.`);
  await expect(saved).toBeVisible();
  await screenshot(page, "toast-routing-saved");
  await saved.getByRole("link", { name: "Send a test invoice" }).click();
  await expect(page).toHaveURL(/\/invoices\/new$/);

  await page.goto("/settings");
  await page.getByRole("checkbox", { name: "Allow pinning live invoices" }).check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(toast(page, "Routing settings saved. Live invoices may now name their connection.")).toBeVisible();
});

test("a flashed confirmation survives a full page load once, then is gone", async () => {
  const flashed = { id: "flash-e2e", message: "Connection saved. Next: test it.", tone: "success", actions: [{ label: "Open API keys", href: "/api-keys" }] };
  await page.context().addCookies([{ name: "po_flash", value: encodeURIComponent(JSON.stringify(flashed)), url: test.info().project.use.baseURL! }]);
  await page.goto("/invoices");
  const shown = toast(page, "Connection saved. Next: test it.");
  await expect(shown).toBeVisible();
  expect((await page.context().cookies()).some((c) => c.name === "po_flash" && c.value !== "")).toBe(false);
  await shown.getByRole("link", { name: "Open API keys" }).click();
  await expect(page).toHaveURL(/\/api-keys$/);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(toast(page, "Connection saved. Next: test it.")).toHaveCount(0);
});

test("on a phone only the newest confirmation is drawn; wider, the ones before it show again", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/api-keys");
  for (const name of ["phone one", "phone two"]) {
    await page.getByLabel("Key name").fill(name);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(toast(page, `API key "${name}" created.`)).toBeVisible();
  }
  await expect(toast(page, 'API key "phone one" created.')).toBeHidden();
  // The region at the screen's foot is the newest toast's height, not the stack's.
  const newest = (await toast(page, 'API key "phone two" created.').boundingBox())!.height;
  expect((await toasts(page).boundingBox())!.height).toBeLessThanOrEqual(newest + 1);
  await screenshot(page, "toast-phone-newest-only");
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(toast(page, 'API key "phone one" created.')).toBeVisible();
  await expect(toast(page, 'API key "phone two" created.')).toBeVisible();
});

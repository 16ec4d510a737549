import { randomBytes } from "node:crypto";
import { expect, test, type BrowserContextOptions } from "@playwright/test";
import { PROVIDERS } from "../lib/providers";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { expectSaved } from "./support/connections";

// One page per test, so a scan never shares its time limit with another page's.

// Signed-out pages; the reset and invitation links in their invalid-link state (a valid link's form is scanned in account.ui.spec.ts).
for (const [url, heading] of [
  ["/sign-in", "Sign in"],
  ["/sign-up", "Create your merchant account"],
  ["/forgot-password", "Forgot your password?"],
  [`/reset-password/${"x".repeat(43)}`, "Reset link not valid"],
  [`/invite/${"x".repeat(43)}`, "Invitation not valid"],
] as const) {
  test(`${url.replace(/x{43}$/, "<invalid token>")} has no serious axe violations`, async ({ page }) => {
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
}

const JSON_API = { "Content-Type": "application/vnd.api+json" };

/** One owner per worker with a test connection and a hosted-page payment invoice, made through the API as a client would. */
type Owner = { state: BrowserContextOptions["storageState"]; connectionId: string; invoiceId: string; hostedPath: string };

/** Signed in as one owner per worker: signing up again for every page would cost more than the scan. */
const dashboard = test.extend<{ owner: Owner }, { workerOwner: Owner }>({
  workerOwner: [
    async ({ browser }, provide, workerInfo) => {
      const context = await browser.newContext({ baseURL: workerInfo.project.use.baseURL });
      const page = await context.newPage();
      const account = await signUp(page);
      const headers = { Authorization: `Bearer ${await createApiKey(page, "axe")}`, ...JSON_API };
      const connection = await page.request.post("/api/connections", {
        headers,
        data: {
          data: {
            type: "connection",
            attributes: { provider: "provider-b", kind: "h2h", label: "Axe B", mode: "test", credentials: sampleCredentials("provider-b", "h2h", "test") },
          },
        },
      });
      expect(connection.status(), await connection.text()).toBe(201);
      const invoice = await page.request.post("/api/commerce/payment-invoices", {
        headers,
        data: {
          data: {
            type: "payment-invoice",
            attributes: {
              commerce_account: account.commerceAccount,
              reference_id: `axe-${randomBytes(6).toString("hex")}`,
              test_mode: true,
              service: "payment_card_eur_hpp",
              currency: "EUR",
              amount: "12.30",
              flow: "charge",
            },
          },
        },
      });
      expect(invoice.status(), await invoice.text()).toBe(201);
      const { data } = (await invoice.json()) as { data: { id: string; attributes: { hpp_url: string } } };
      const connectionId = ((await connection.json()) as { data: { id: string } }).data.id;
      const state = await context.storageState();
      await context.close();
      await provide({ state, connectionId, invoiceId: data.id, hostedPath: new URL(data.attributes.hpp_url).pathname });
    },
    { scope: "worker", timeout: 120_000 },
  ],
  owner: async ({ workerOwner }, provide) => provide(workerOwner),
  storageState: async ({ workerOwner }, provide) => provide(workerOwner.state),
});

const DASHBOARD_PAGES: readonly [string, (owner: Owner) => string][] = [
  ["/home", () => "/home"],
  ["/providers", () => "/providers"],
  ["/connections", () => "/connections"],
  ["/connections/[id]", (owner) => `/connections/${owner.connectionId}`],
  ["/routing", () => "/routing"],
  ["/invoices", () => "/invoices"],
  // The header's search lands here: the list with its search summary (and the search box on every page).
  ["/invoices?q=", () => "/invoices?q=no-such-invoice"],
  ["/invoices/new", () => "/invoices/new"],
  ["/invoices/[id]", (owner) => `/invoices/${owner.invoiceId}`],
  ["/customers", () => "/customers"],
  // The dispute's own page is checked in e2e/disputes.ui.spec.ts, which makes a dispute.
  ["/disputes", () => "/disputes"],
  ["/alerts", () => "/alerts"],
  ["/api-keys", () => "/api-keys"],
  ["/team", () => "/team"],
  ["/settings", () => "/settings"],
  ["/settings/two-factor", () => "/settings/two-factor"],
  ["/audit-log", () => "/audit-log"],
  ["/webhooks", () => "/webhooks"],
  ["/docs/webhooks", () => "/docs/webhooks"],
];

for (const [name, url] of DASHBOARD_PAGES) {
  dashboard(`dashboard page ${name} has no serious axe violations`, async ({ page, owner }) => {
    const response = await page.goto(url(owner));
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSeriousViolations(page);
  });
}

dashboard("the hosted payment page /pay/[id] has no serious axe violations", async ({ browser, owner }, testInfo) => {
  // The customer is not signed in.
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const page = await context.newPage();
  await page.goto(owner.hostedPath);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("textbox", { name: /^Card number/ })).toBeVisible();
  await expectNoSeriousViolations(page);
  await context.close();
});

for (const provider of PROVIDERS) {
  dashboard(`${provider.name}'s overview page has no serious axe violations`, async ({ page }) => {
    await page.goto(`/providers/${provider.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: provider.name })).toBeVisible();
    await expectNoSeriousViolations(page);
  });

  for (const kind of provider.kinds) {
    dashboard(`${provider.name}'s ${kind.label} form showing field errors has no serious axe violations`, async ({ page }) => {
      await page.goto(`/providers/${provider.slug}`);
      await page.getByRole("button", { name: "Connect" }).click();
      await page.getByRole("radio", { name: new RegExp(`^${kind.label}`) }).check();
      await page.getByRole("button", { name: "Save connection" }).click();
      // The field's own error and the summary at the top of the form both say it.
      await expect(page.locator(`#new-${kind.kind}-label-error`)).toHaveText("Label is required");
      await expect(page.getByTestId("error-summary").getByRole("link", { name: "Label is required" })).toBeVisible();
      await expectNoSeriousViolations(page);
    });
  }
}

// Signed in as this file's owner of the worker: "Keyboard B" is made once per owner, and nothing above looks at it.
dashboard("a connection can be made with the keyboard alone", async ({ page }) => {
  await page.goto("/providers/provider-b");
  await page.getByRole("button", { name: "Connect" }).focus();
  await page.keyboard.press("Enter");
  const label = page.getByLabel("Label");
  await expect(label).toBeVisible();
  // The kind is preselected for a one-kind provider; Tab order runs kind → label → mode → fields.
  await page.getByRole("radio", { name: /^H2H merchant account/ }).focus();
  await page.keyboard.press("Tab");
  await expect(label).toBeFocused();
  await page.keyboard.type("Keyboard B");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("radio", { name: /^Test/ })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: /^Terminal ID/ })).toBeFocused();
  await page.keyboard.type("TERM-KB");
  await page.keyboard.press("Tab");
  await page.keyboard.type("keyboard-secret-1234");
  await page.keyboard.press("Enter");
  await expectSaved(page, "Keyboard B");
  await expect(page.getByTestId("credential-secret_key")).toHaveText("Set · ••••1234");
});

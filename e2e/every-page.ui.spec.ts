import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { merchantWithKey, signIn } from "./support/accounts";
import { screenshot } from "./support/screenshots";

/**
 * Every page at 1280 px and at 390 px. At 390 px no page may scroll
 * sideways (wide tables scroll inside their own container instead). With E2E_SCREENSHOTS set, each page
 * is also saved as a full-page screenshot page-<name>-<width>.png, so the layout can be looked at.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };
const WIDTHS = [1280, 390] as const;

test("every page fits a 390 px phone without sideways scrolling; screenshots at 1280 and 390 px", async ({ browser, request }) => {
  test.setTimeout(180_000);
  const merchant = await merchantWithKey(browser);
  const headers = { Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API };
  const created = await request.post("/api/connections", {
    headers,
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label: `every page ${randomBytes(3).toString("hex")}`,
          mode: "test",
          credentials: sampleCredentials("provider-b", "h2h", "test"),
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const connectionId = ((await created.json()) as { data: { id: string } }).data.id;
  const invoiceResponse = await request.post("/api/commerce/payment-invoices", {
    headers,
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          commerce_account: merchant.commerceAccount,
          reference_id: `every-page-${randomBytes(12).toString("hex")}`,
          test_mode: true,
          service: "payment_card_eur_hpp",
          currency: "EUR",
          amount: "100.50",
          flow: "charge",
        },
      },
    },
  });
  expect(invoiceResponse.status(), await invoiceResponse.text()).toBe(201);
  const invoice = (await invoiceResponse.json()).data as { id: string; attributes: { hpp_url: string } };

  const publicPages: [string, string][] = [
    ["sign-in", "/sign-in"],
    ["sign-up", "/sign-up"],
    ["forgot-password", "/forgot-password"],
    ["pay", new URL(invoice.attributes.hpp_url).pathname],
  ];
  const dashboardPages: [string, string][] = [
    ["home", "/home"],
    ["providers", "/providers"],
    ["provider", "/providers/provider-b"],
    ["connections", "/connections"],
    ["connection", `/connections/${connectionId}`],
    ["invoices", "/invoices"],
    ["invoice", `/invoices/${invoice.id}`],
    ["invoices-new", "/invoices/new"],
    ["customers", "/customers"],
    ["disputes", "/disputes"],
    ["alerts", "/alerts"],
    ["risk", "/risk"],
    ["routing", "/routing"],
    ["api-keys", "/api-keys"],
    ["team", "/team"],
    ["settings", "/settings"],
    ["two-factor", "/settings/two-factor"],
    ["audit-log", "/audit-log"],
    ["webhooks", "/webhooks"],
    ["docs-api", "/docs/api"],
    ["docs-api-tag", "/docs/api/payments"],
    ["docs-webhooks", "/docs/webhooks"],
  ];

  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height: 844 } });
    const page = await context.newPage();
    const visit = async (name: string, path: string) => {
      const response = await page.goto(path);
      expect.soft(response?.status(), `${name} (${path}) answers`).toBeLessThan(400);
      // Pages stream in behind a loading skeleton (loading.tsx); every page's content starts with its h1.
      await expect(page.getByRole("heading", { level: 1 }).first(), `${name} (${path}) shows its heading`).toBeVisible();
      await screenshot(page, `page-${name}-${width}`, { fullPage: true });
      if (width === 390) {
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
        expect.soft(scrollWidth, `${name} (${path}) scrolls sideways at 390 px`).toBeLessThanOrEqual(innerWidth);
      }
    };
    for (const [name, path] of publicPages) await visit(name, path);
    await signIn(page, merchant.email, merchant.password);
    await expect(page).not.toHaveURL(/sign-in/);
    for (const [name, path] of dashboardPages) await visit(name, path);
    await context.close();
  }
});

import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { PAYMENT_EXAMPLES, payoutExample } from "../tests/fixtures/invoices";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import type { ConnectionKind } from "../lib/providers/types";
import { createApiKey, signUp } from "./support/accounts";
import { screenshot } from "./support/screenshots";

/** The header's search (`/`, by reference and by last four) and the invoice list's Export CSV with a filter, at desktop and phone widths. */

const WAITING_PAYOUT = { attempts_limit: 5, split_mode: false, allow_partially: false, auto_process: false };

function headers(apiKey: string) {
  return { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/vnd.api+json" };
}

async function connect(api: APIRequestContext, apiKey: string, provider: string, kind: ConnectionKind) {
  const response = await api.post("/api/connections", {
    headers: headers(apiKey),
    data: {
      data: {
        type: "connection",
        attributes: {
          provider,
          kind,
          label: `${provider} ${randomBytes(3).toString("hex")}`,
          mode: "test",
          credentials: sampleCredentials(provider, kind, "test"),
        },
      },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function invoice(
  api: APIRequestContext,
  apiKey: string,
  account: string,
  direction: "payment" | "payout",
  example: unknown,
  attributes: Record<string, unknown>,
) {
  const body = structuredClone(example) as { data: { attributes: Record<string, unknown> } };
  body.data.attributes = { ...body.data.attributes, commerce_account: account, ...attributes };
  const response = await api.post(`/api/commerce/${direction}-invoices`, { headers: headers(apiKey), data: body });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data.id as string;
}

/** Ids of the CSV's rows (the first column; these rows hold no quoted line breaks). */
function csvIds(text: string): string[] {
  const lines = text.split("\r\n").filter(Boolean);
  expect(lines[0]).toMatch(/^id,type,status,/);
  return lines.slice(1).map((line) => line.split(",")[0]!);
}

async function searchFor(page: Page, text: string) {
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("/");
  const box = page.getByRole("searchbox", { name: "Search invoices" });
  await expect(box).toBeFocused();
  await box.fill(text);
  await box.press("Enter");
}

test("search finds an invoice by reference and by last four, and Export CSV downloads the filtered list", async ({ page, playwright }, testInfo) => {
  test.setTimeout(120_000);
  const account = await signUp(page);
  const apiKey = await createApiKey(page);
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  await connect(api, apiKey, "provider-b", "h2h");
  await connect(api, apiKey, "provider-a", "provider_account");
  const run = `srch-${randomBytes(4).toString("hex")}`;
  const B = PAYMENT_EXAMPLES["B: EUR without customer"];
  const first = await invoice(api, apiKey, account.commerceAccount, "payment", B, {
    reference_id: `${run}-first`,
    customer: { name: "Ada Lovelace", email: "ada@example.com" },
  });
  const second = await invoice(api, apiKey, account.commerceAccount, "payment", B, { reference_id: `=${run}-second`, amount: "12.30" });
  const payout = await invoice(api, apiKey, account.commerceAccount, "payout", payoutExample(), {
    reference_id: `${run}-payout`,
    fields: { card_number: "4000 0000 0000 0077" },
    options: WAITING_PAYOUT,
  });
  // A reference written in capitals, to be found by a lower-case beginning of it (a payout: the
  // payments' export below stays the two payments).
  const caps = await invoice(api, apiKey, account.commerceAccount, "payout", payoutExample(), {
    reference_id: `${run}-CAPS-ORDER-1234`.toUpperCase(),
    fields: { card_number: "4000 0000 0000 0002" },
    options: WAITING_PAYOUT,
  });
  await api.dispose();

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // `/` reaches the search box from anywhere but a field; an exact reference opens its invoice.
    await page.goto("/home");
    await searchFor(page, `${run}-first`);
    await expect(page).toHaveURL(new RegExp(`/invoices/${first}$`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Typing `/` in a field stays in the field.
    await searchFor(page, "0077");
    await expect(page).toHaveURL(/\/invoices\?q=0077$/);
    await expect(page.getByTestId("search-summary")).toContainText("0077");
    await expect(page.getByTestId("invoice-row")).toHaveCount(1);
    await expect(page.locator(`[data-invoice-id="${payout}"]`).first()).toBeVisible();
    await expect(page.getByRole("searchbox", { name: "Search invoices" })).toHaveValue("0077");
    await screenshot(page, `search-last-four-${width}`, { fullPage: true });
    // A reference's beginning in lower case finds the reference written in capitals.
    await searchFor(page, `${run}-caps-order-12`);
    await expect(page).toHaveURL(new RegExp(`/invoices\\?q=${run}-caps-order-12$`));
    await expect(page.getByTestId("invoice-row")).toHaveCount(1);
    await expect(page.locator(`[data-invoice-id="${caps}"]`).first()).toBeVisible();

    // Export with a filter: only payments, every one of them, newest first; the formula-like reference escaped.
    await page.goto("/invoices?type=payment");
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^invoices-test-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = fs.readFileSync((await file.path())!);
    // A UTF-8 byte order mark first, so spreadsheet programs read "Müller" as written.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    expect(csvIds(text)).toEqual([second, first]);
    expect(text).toContain(`'=${run}-second`);
    expect(text).toContain(",12.30,EUR,");
    await expect(page.getByTestId("export-status")).toHaveText("Exported 2 rows.");
    await screenshot(page, `export-${width}`, { fullPage: true });
  }
  // Typing `/` inside a field types it.
  const box = page.getByRole("searchbox", { name: "Search invoices" });
  await box.fill("a");
  await box.press("/");
  await expect(box).toHaveValue("a/");
});

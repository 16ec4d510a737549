import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { ConnectionKind } from "../lib/providers";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { merchantWithKey } from "./support/accounts";
import { openInvoiceAttempt } from "./support/invoice-page";

/**
 * Providers A, B and C: a test-mode invoice created through the API reaches a final
 * status through that provider's adapter and its sandbox on this server: payments on the public
 * hosted page in a real browser (C through 3-D Secure), A's payout through the process call.
 * Each then opens the invoice page as the owner and finds the attempt with the sandbox's record.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

type Merchant = { apiKey: string; commerceAccount: string };

const auth = (merchant: Merchant) => ({ Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API });

async function connect(request: APIRequestContext, merchant: Merchant, provider: string, kind: ConnectionKind) {
  const response = await request.post("/api/connections", {
    headers: auth(merchant),
    data: {
      data: {
        type: "connection",
        attributes: { provider, kind, label: `${provider} e2e`, mode: "test", credentials: sampleCredentials(provider, kind, "test") },
      },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function newInvoice(request: APIRequestContext, merchant: Merchant, type: "payment" | "payout", attributes: Record<string, unknown>) {
  const response = await request.post(`/api/commerce/${type}-invoices`, {
    headers: auth(merchant),
    data: {
      data: {
        type: `${type}-invoice`,
        attributes: { commerce_account: merchant.commerceAccount, reference_id: `abc-${randomBytes(6).toString("hex")}`, test_mode: true, ...attributes },
      },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data as { id: string; attributes: Record<string, unknown> };
}

async function payWith(page: Page, digits: string) {
  await page.getByRole("button", { name: new RegExp(digits.replace(/(\d{4})(?=\d)/g, "$1 ")) }).click();
  await page.getByLabel("Cardholder name").fill("Test Holder");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
}

async function readInvoice(request: APIRequestContext, merchant: Merchant, type: "payment" | "payout", id: string) {
  const response = await request.get(`/api/commerce/${type}-invoices/${id}`, { headers: auth(merchant) });
  expect(response.status()).toBe(200);
  return (await response.json()).data.attributes as Record<string, unknown>;
}

test("Provider A: the spec 4.1 payment is paid on the hosted page through A's signed API", async ({ browser, page }) => {
  test.slow();
  const merchant = await merchantWithKey(browser);
  await connect(page.request, merchant, "provider-a", "provider_account");
  const invoice = await newInvoice(page.request, merchant, "payment", {
    service: "payment_card_uah_hpp",
    currency: "UAH",
    amount: 100,
    flow: "charge",
    options: { allow_partially: false },
  });
  await page.goto(new URL(String(invoice.attributes.hpp_url)).pathname);
  await payWith(page, "4242424242424242");
  await expect(page.getByTestId("pay-result")).toContainText("Payment received");
  expect(await readInvoice(page.request, merchant, "payment", invoice.id)).toMatchObject({ status: "processed", attempts: 1 });
  const shown = await openInvoiceAttempt(browser, merchant, invoice.id, {
    label: "provider-a e2e",
    providerName: "Provider A",
    status: "Succeeded",
    resolution: "ok",
  });
  await shown.close();
});

test("Provider B: a declined card ends the invoice process_failed with issuer_decline", async ({ browser, page }) => {
  test.slow();
  const merchant = await merchantWithKey(browser);
  await connect(page.request, merchant, "provider-b", "h2h");
  const invoice = await newInvoice(page.request, merchant, "payment", { service: "payment_card_eur_hpp", currency: "EUR", amount: "100.50", flow: "charge" });
  await page.goto(new URL(String(invoice.attributes.hpp_url)).pathname);
  await payWith(page, "4000000000000002");
  await expect(page.getByTestId("pay-result")).toBeVisible();
  await expect.poll(async () => (await readInvoice(page.request, merchant, "payment", invoice.id)).status).toBe("process_failed");
  expect(await readInvoice(page.request, merchant, "payment", invoice.id)).toMatchObject({ resolution: "issuer_decline", attempts: 1 });
  const shown = await openInvoiceAttempt(browser, merchant, invoice.id, {
    label: "provider-b e2e",
    providerName: "Provider B",
    status: "Declined",
    resolution: "issuer_decline",
  });
  await shown.close();
});

test("Provider C: 3-D Secure passed on the sandbox page pays the AMD example", async ({ browser, page }) => {
  test.slow();
  const merchant = await merchantWithKey(browser);
  await connect(page.request, merchant, "provider-c", "provider_account");
  const invoice = await newInvoice(page.request, merchant, "payment", {
    service: "payment_card_amd_hpp",
    currency: "AMD",
    amount: 5000,
    flow: "charge",
    options: { allow_partially: false },
  });
  const path = new URL(String(invoice.attributes.hpp_url)).pathname;
  await page.goto(path);
  await payWith(page, "4000000000003220");
  await expect(page).toHaveURL(/\/sandbox\/3ds\/provider-c\//);
  await page.getByRole("button", { name: "Pass" }).click();
  await expect(page.getByTestId("pay-result")).toContainText("Payment received");
  expect(await readInvoice(page.request, merchant, "payment", invoice.id)).toMatchObject({ status: "processed", processed_amount: expect.anything() });
  const shown = await openInvoiceAttempt(browser, merchant, invoice.id, {
    label: "provider-c e2e",
    providerName: "Provider C",
    status: "Succeeded",
    resolution: "ok",
  });
  await shown.close();
});

test("Provider A payout: created without auto_process, the process call pays 30,000.00 UAH in three parts", async ({ browser, request }) => {
  test.slow();
  const merchant = await merchantWithKey(browser);
  await connect(request, merchant, "provider-a", "h2h");
  const invoice = await newInvoice(request, merchant, "payout", {
    service: "payment_card_uah",
    currency: "UAH",
    amount: "30000.00",
    fields: { card_number: "411111******1111" },
    options: { split_mode: true, allow_partially: false, auto_process: false },
    customer: { reference_id: "cust-2001", name: "Taras Shevchenko", address: { country: "UA", city: "Kyiv", street: "Khreshchatyk St 22" } },
  });
  expect(invoice.attributes.status).toBe("created");
  const processed = await request.post(`/api/commerce/payout-invoices/${invoice.id}/process`, { headers: auth(merchant) });
  expect(processed.status(), await processed.text()).toBeLessThan(300);
  expect(await readInvoice(request, merchant, "payout", invoice.id)).toMatchObject({ status: "processed", processed_amount: expect.anything(), attempts: 1 });
  const attempts = await request.get(`/api/commerce/payout-invoices/${invoice.id}/attempts`, { headers: auth(merchant) });
  const [attempt] = (await attempts.json()).data as { attributes: { payout_parts: { amount: string; status: string; provider_reference: string }[] } }[];
  expect(attempt!.attributes.payout_parts).toEqual([
    expect.objectContaining({ amount: "10000.00", status: "succeeded", provider_reference: expect.stringMatching(/^A-PO-/) }),
    expect.objectContaining({ amount: "10000.00", status: "succeeded" }),
    expect.objectContaining({ amount: "10000.00", status: "succeeded" }),
  ]);
  const shown = await openInvoiceAttempt(browser, merchant, invoice.id, {
    label: "provider-a e2e",
    providerName: "Provider A",
    status: "Succeeded",
    resolution: "ok",
  });
  const parts = shown.attempt.getByRole("table", { name: "Payout parts of attempt 1" }).getByRole("row");
  await expect(parts).toHaveCount(4);
  for (const row of await parts.all().then((rows) => rows.slice(1))) {
    await expect(row).toContainText("10000.00");
    await expect(row).toContainText("succeeded");
  }
  await shown.close();
});

import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { merchantWithKey } from "./support/accounts";
import { openInvoiceAttempt } from "./support/invoice-page";

/**
 * Providers D, E and F: a test-mode invoice created through the API reaches a final
 * status through that provider's adapter and its sandbox on this server, in a real browser on
 * the public hosted page (D without a CVC field, E through 3-D Secure), or at creation for F's
 * bypass_hpp. Each then opens the invoice page as the owner and finds the attempt with the
 * sandbox's record.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

type Merchant = { apiKey: string; commerceAccount: string };

async function connect(request: APIRequestContext, merchant: Merchant, provider: string, credentials: Record<string, unknown>) {
  const response = await request.post("/api/connections", {
    headers: { Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API },
    data: { data: { type: "connection", attributes: { provider, kind: "h2h", label: `${provider} e2e`, mode: "test", credentials, constants: {} } } },
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function newInvoice(request: APIRequestContext, merchant: Merchant, attributes: Record<string, unknown>) {
  const response = await request.post("/api/commerce/payment-invoices", {
    headers: { Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          commerce_account: merchant.commerceAccount,
          reference_id: `def-${randomBytes(6).toString("hex")}`,
          flow: "charge",
          test_mode: true,
          ...attributes,
        },
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

const token = () => randomBytes(18).toString("base64url");

test("Provider D: the hosted page asks for no CVC and the sale is paid through D's sandbox", async ({ browser, page }) => {
  test.slow();
  const merchant = await merchantWithKey(browser);
  await connect(page.request, merchant, "provider-d", {
    api_key: token(),
    secret_key: token(),
    api_url: "https://api.provider-d.example/v1",
    merchant_id: `D-${randomBytes(3).toString("hex")}`,
    service_id: "D-SVC-9",
    currency: "UZS",
    send_merchant_data: true,
    merchant_category_code: "5411",
    merchant_url: "https://shop.example.com",
    p2p: false,
    features: ["payments"],
  });
  const invoice = await newInvoice(page.request, merchant, { service: "payment_card_uzs_hpp", currency: "UZS", amount: 150000 });
  await page.goto(new URL(String(invoice.attributes.hpp_url)).pathname);
  await expect(page.getByLabel("Card number")).toBeVisible();
  await expect(page.getByLabel("CVC")).toHaveCount(0);
  await payWith(page, "4242424242424242");
  await expect(page.getByTestId("pay-result")).toContainText("Payment received");
  const shown = await openInvoiceAttempt(browser, merchant, invoice.id, {
    label: "provider-d e2e",
    providerName: "Provider D",
    status: "Succeeded",
    resolution: "ok",
  });
  await shown.close();
});

test("Provider E: 3-D Secure passed on the sandbox page brings the customer back to a paid invoice", async ({ browser, page }) => {
  test.slow();
  const merchant = await merchantWithKey(browser);
  const pair = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  await connect(page.request, merchant, "provider-e", {
    merchant_id: `E-${randomBytes(3).toString("hex")}`,
    public_key: pair.publicKey,
    private_key: pair.privateKey,
    currency: "EUR",
    ignore_callback: false,
  });
  const invoice = await newInvoice(page.request, merchant, {
    service: "payment_card_eur_hpp",
    currency: "EUR",
    amount: "75.00",
    customer: { name: "Erika Mustermann", email: "erika@example.com", date_of_birth: "1990-04-21" },
  });
  const path = new URL(String(invoice.attributes.hpp_url)).pathname;
  await page.goto(path);
  await payWith(page, "4000000000003220");
  await expect(page).toHaveURL(/\/sandbox\/3ds\/provider-e\//);
  await expect(page.getByText("75.00 EUR")).toBeVisible();
  await page.getByRole("button", { name: "Pass" }).click();
  await expect(page.getByTestId("pay-result")).toContainText("Payment received");
  // The return URL is on APP_URL, which may name this server differently from the test's base URL.
  expect(new URL(page.url()).pathname).toBe(path);
  const shown = await openInvoiceAttempt(browser, merchant, invoice.id, {
    label: "provider-e e2e",
    providerName: "Provider E",
    status: "Succeeded",
    resolution: "ok",
  });
  await shown.close();
});

test("Provider F: bypass_hpp is processed at creation without the hosted page; a card payment on the page is declined with the reason", async ({
  browser,
  page,
}) => {
  test.slow();
  const merchant = await merchantWithKey(browser);
  await connect(page.request, merchant, "provider-f", {
    public_key: `dev_pub_${randomUUID()}`,
    secret_key: `dev_sec_${randomBytes(24).toString("hex")}`,
    test_mode: true,
    currency: "EUR",
  });
  const eur = { service: "payment_card_eur_hpp", currency: "EUR", amount: 120 };
  const bypassed = await newInvoice(page.request, merchant, { ...eur, options: { bypass_hpp: true, send_operation_context_on_return: true } });
  expect(bypassed.attributes.status).toBe("processed");
  const invoice = await newInvoice(page.request, merchant, eur);
  await page.goto(new URL(String(invoice.attributes.hpp_url)).pathname);
  await payWith(page, "4000000000000002");
  await expect(page.getByTestId("pay-result")).toContainText("Payment declined");
  const shown = await openInvoiceAttempt(browser, merchant, invoice.id, {
    label: "provider-f e2e",
    providerName: "Provider F",
    status: "Declined",
    resolution: "issuer_decline",
  });
  await shown.close();
});

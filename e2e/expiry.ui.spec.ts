import { generateKeyPairSync, randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { merchantWithKey, signIn } from "./support/accounts";
import { screenshot } from "./support/screenshots";

/**
 * An invoice created through the API with a short `lifetime` expires,
 * and its hosted page then says so and takes no card (even when Pay is pressed on a page opened
 * before); and "Check status now" on the invoice page settles a 3-D Secure payment whose customer
 * passed the check but never came back (Provider E with ignore_callback: only a status request
 * can tell, spec 6).
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

type Merchant = { apiKey: string; commerceAccount: string };

async function connect(request: APIRequestContext, merchant: Merchant, provider: string, credentials: Record<string, unknown>) {
  const response = await request.post("/api/connections", {
    headers: { Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API },
    data: { data: { type: "connection", attributes: { provider, kind: "h2h", label: `${provider} expiry e2e`, mode: "test", credentials, constants: {} } } },
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
          reference_id: `exp-${randomBytes(6).toString("hex")}`,
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

test("an invoice with a 10-second lifetime expires: its hosted page says so, refuses Pay and shows no card form", async ({ browser, page }) => {
  test.slow();
  const merchant = await merchantWithKey(browser);
  await connect(page.request, merchant, "provider-b", {
    terminal_id: `TERM-${randomBytes(3).toString("hex")}`,
    secret_key: randomBytes(18).toString("base64url"),
    currency: "EUR",
  });
  const invoice = await newInvoice(page.request, merchant, { service: "payment_card_eur_hpp", currency: "EUR", amount: "19.90", lifetime: 10 });
  expect(invoice.attributes).toMatchObject({ status: "created", lifetime: 10 });
  const expiresAt = new Date(String(invoice.attributes.expires_at)).getTime();
  expect(expiresAt - new Date(String(invoice.attributes.created)).getTime()).toBe(10_000);

  const path = new URL(String(invoice.attributes.hpp_url)).pathname;
  await page.goto(path);
  await expect(page.getByLabel("Card number")).toBeVisible();
  await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
  await page.getByLabel("Cardholder name").fill("Late Customer");

  // The customer waits too long with the page open.
  await page.waitForTimeout(Math.max(0, expiresAt - Date.now()) + 1_000);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  const status = page.getByTestId("pay-status");
  await expect(status).toContainText("This payment link has expired, so no payment was taken.");
  await expect(page.getByTestId("pay-result")).toContainText("This payment link has expired");
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Pay", exact: true })).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId("pay-result")).toContainText("This payment link has expired");
  await expect(page.getByTestId("pay-result")).toHaveAttribute("data-outcome", "closed");
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Test cards" })).toHaveCount(0);
  await screenshot(page, "pay-expired", { fullPage: true });

  const read = await page.request.get(`/api/commerce/payment-invoices/${invoice.id}`, { headers: { Authorization: `Bearer ${merchant.apiKey}` } });
  expect((await read.json()).data.attributes).toMatchObject({ status: "expired", resolution: "expired", attempts: 0 });
});

test("Check status now settles a 3-D Secure payment whose customer never came back (Provider E ignores callbacks)", async ({ browser, page }) => {
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
    ignore_callback: true,
  });
  const invoice = await newInvoice(page.request, merchant, {
    service: "payment_card_eur_hpp",
    currency: "EUR",
    amount: "64.00",
    customer: { name: "Erika Mustermann", email: "erika@example.com", date_of_birth: "1990-04-21" },
  });

  // The owner is signed in already, in a browser of their own.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signIn(owner, merchant.email, merchant.password);
  await expect(owner.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();

  const path = new URL(String(invoice.attributes.hpp_url)).pathname;
  await page.goto(path);
  await page.getByRole("button", { name: /4000 0000 0000 3220/ }).click();
  await page.getByLabel("Cardholder name").fill("Erika Mustermann");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page).toHaveURL(/\/sandbox\/3ds\/provider-e\//);

  // Before the customer answers, the invoice page shows the wait and the scheduled status request.
  await owner.goto(`/invoices/${invoice.id}`);
  const scheduled = owner.getByTestId("invoice-scheduled");
  await expect(scheduled.getByRole("heading", { name: "Scheduled" })).toBeVisible();
  await expect(scheduled).toContainText("Expires at");
  await expect(scheduled.getByTestId("schedule-jobs")).toContainText("Status request 1");
  await expect(scheduled.getByTestId("schedule-jobs")).toContainText("Expiry check");
  await screenshot(scheduled, "invoice-scheduled");

  // The first scheduled status request (10 s after the attempt) finds it still waiting; the next is at 30 s.
  await expect(async () => {
    await owner.reload();
    await expect(owner.getByTestId("schedule-jobs")).toContainText("Status request 2", { timeout: 1_000 });
  }).toPass({ timeout: 40_000 });

  // The customer passes 3-D Secure but the way back never arrives (a closed tab, a lost connection):
  // the answer reaches the sandbox, its redirect back to the hosted page never reaches the browser.
  // Without JavaScript the answer is a plain form post, whose redirect this test can swallow.
  const threeDsUrl = page.url();
  const lostContext = await browser.newContext({ javaScriptEnabled: false });
  const customer = await lostContext.newPage();
  let answered = 0;
  await customer.route(
    (url) => url.pathname.startsWith("/sandbox/3ds/"),
    async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      answered = (await route.fetch({ maxRedirects: 0 })).status();
      await route.fulfill({ status: 200, contentType: "text/html", body: "<title>Connection lost</title><p>Connection lost</p>" });
    },
  );
  await customer.goto(threeDsUrl);
  await customer.getByRole("button", { name: "Pass" }).click();
  await expect(customer.getByText("Connection lost")).toBeVisible();
  expect(answered).toBe(303);
  await lostContext.close();

  await owner.reload();
  const check = owner.getByRole("button", { name: "Check status now" });
  await expect(check).toBeEnabled();
  await check.click();
  await expect(owner.getByTestId("check-status-result")).toContainText("The provider answered: the payment went through. The invoice is processed (ok).");
  await expect(owner.getByRole("button", { name: "Check status now" })).toBeDisabled();
  await expect(scheduled).toContainText("Nothing to ask the provider: the invoice is processed.");
  await expect(owner.getByTestId("invoice-attempt")).toContainText("Succeeded");
  // The status request still queued would find nothing to do: it is not listed as something that will happen.
  await expect(scheduled.getByRole("row", { name: /Status request/ })).toHaveCount(0);
  await expect(owner.getByTestId("invoice-live")).toHaveText("Settled: it changes only if a refund is asked for.");
  await screenshot(scheduled, "invoice-scheduled-after");

  const read = await page.request.get(`/api/commerce/payment-invoices/${invoice.id}`, { headers: { Authorization: `Bearer ${merchant.apiKey}` } });
  expect((await read.json()).data.attributes).toMatchObject({ status: "processed", resolution: "ok", attempts: 1 });
  await ownerContext.close();
});

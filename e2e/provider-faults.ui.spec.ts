import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createApiKey, signUp } from "./support/accounts";
import { screenshot } from "./support/screenshots";

/**
 * The owner sets a test-mode connection's sandbox to fail with a server error
 * on the connection page ("Sandbox behaviour"), a customer's payment on the hosted page fails with
 * nothing taken and the invoice page says why; set back to Normal, the same invoice is paid. A
 * garbled answer leaves the outcome unknown: the hosted page says the payment is being confirmed
 * and shows the result by itself once a status request settles it.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };
const toast = (page: Page, text: string) =>
  page
    .getByRole("region", { name: /^Notifications/ })
    .getByTestId("toast")
    .filter({ hasText: text });
const token = () => randomBytes(18).toString("base64url");

async function setBehaviour(page: Page, connectionId: string, option: string, confirmation: string) {
  await page.goto(`/connections/${connectionId}`);
  const section = page.getByTestId("sandbox-behaviour");
  await section.getByLabel("Sandbox behaviour").selectOption({ label: option });
  await section.getByRole("button", { name: "Apply" }).click();
  await expect(toast(page, confirmation)).toBeVisible();
  await expect(section.getByTestId("sandbox-fault-current")).toHaveText(`Now: ${option}`);
  return section;
}

async function pay(page: Page, hppPath: string) {
  await page.goto(hppPath);
  await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
  await page.getByLabel("Cardholder name").fill("Test Holder");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
}

/** A test-mode Provider D connection made through the API; its label and id. */
async function connectD(page: Page, headers: Record<string, string>) {
  const label = `D faults ${randomBytes(3).toString("hex")}`;
  const created = await page.request.post("/api/connections", {
    headers,
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-d",
          kind: "h2h",
          label,
          mode: "test",
          constants: {},
          credentials: {
            api_key: token(),
            secret_key: token(),
            api_url: "https://api.provider-d.example/v1",
            merchant_id: `D-${randomBytes(4).toString("hex")}`,
            service_id: "D-SVC-9",
            currency: "UZS",
            send_merchant_data: false,
            p2p: false,
            features: ["payments"],
          },
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const connectionId = ((await created.json()) as { data: { id: string } }).data.id;
  return { label, connectionId };
}

/** A hosted-page invoice of 150,000 UZS; its id and the hosted page's path. */
async function newInvoice(page: Page, headers: Record<string, string>, commerceAccount: string) {
  const invoiceAnswer = await page.request.post("/api/commerce/payment-invoices", {
    headers,
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          commerce_account: commerceAccount,
          reference_id: `fault-${randomBytes(6).toString("hex")}`,
          flow: "charge",
          test_mode: true,
          service: "payment_card_uzs_hpp",
          currency: "UZS",
          amount: 150000,
        },
      },
    },
  });
  expect(invoiceAnswer.status(), await invoiceAnswer.text()).toBe(201);
  const invoice = ((await invoiceAnswer.json()) as { data: { id: string; attributes: { hpp_url: string } } }).data;
  return { invoiceId: invoice.id, hppPath: new URL(invoice.attributes.hpp_url).pathname };
}

test("a 5xx fault set on the connection page: the payment fails with nothing taken; back to Normal, the invoice is paid", async ({ page }) => {
  test.slow();
  const account = await signUp(page);
  const apiKey = await createApiKey(page);
  const headers = { Authorization: `Bearer ${apiKey}`, ...JSON_API };
  const { label, connectionId } = await connectD(page, headers);
  const section = await setBehaviour(page, connectionId, "Server error (5xx)", `The sandbox of "${label}" now behaves as: Server error (5xx).`);
  await expect(section).toContainText("refuses every request with HTTP 503 before acting");
  await screenshot(section, "sandbox-behaviour");
  const { invoiceId, hppPath } = await newInvoice(page, headers, account.commerceAccount);

  await pay(page, hppPath);
  await expect(page.getByTestId("pay-result")).toContainText("No payment was taken; you can try again.");

  await page.goto(`/invoices/${invoiceId}`);
  const attempt = page.getByTestId("invoice-attempt");
  await expect(attempt).toHaveCount(1);
  await expect(attempt).toContainText(label);
  await expect(attempt.getByText("Failed, may go elsewhere", { exact: true })).toBeVisible();
  await expect(attempt.getByText("provider_unavailable", { exact: true })).toBeVisible();
  await screenshot(page, "fault-invoice", { fullPage: true });

  await setBehaviour(page, connectionId, "Normal", `The sandbox of "${label}" answers normally again.`);
  await pay(page, hppPath);
  await expect(page.getByTestId("pay-result")).toContainText("Payment received");
});

test("a garbled answer leaves the payment being confirmed; the customer's open page shows the result by itself once a status request settles it", async ({
  page,
  context,
}) => {
  test.slow();
  const account = await signUp(page);
  const apiKey = await createApiKey(page);
  const headers = { Authorization: `Bearer ${apiKey}`, ...JSON_API };
  const { label, connectionId } = await connectD(page, headers);
  await setBehaviour(page, connectionId, "Garbled answer", `The sandbox of "${label}" now behaves as: Garbled answer.`);
  const { hppPath } = await newInvoice(page, headers, account.commerceAccount);

  const customer = await context.newPage();
  await pay(customer, hppPath);
  await expect(customer.getByTestId("pay-result")).toContainText("We are confirming your payment");
  await expect(customer.getByRole("button", { name: "Pay", exact: true })).toHaveCount(0);

  // The sandbox took the payment; once it answers again, the scheduled status request (10 s after
  // the attempt) settles it, and the page, polling, shows the result without the customer reloading.
  await setBehaviour(page, connectionId, "Normal", `The sandbox of "${label}" answers normally again.`);
  await expect(customer.getByTestId("pay-result")).toContainText("Payment received", { timeout: 45_000 });
  expect(new URL(customer.url()).pathname).toBe(hppPath);
});

import { createHmac, randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { merchantWithKey, signIn } from "./support/accounts";

/**
 * The owner reads the Callback URL on the
 * connection page; a payment waits at Provider B's 3-D Secure step; a callback signed as Provider B
 * signs them (HMAC-SHA256 with the connection's secret key, over the timestamp, the notification id
 * and the raw body) posted to that URL processes the invoice, while a forged one and a replay of the
 * valid one are refused and change nothing.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

type Merchant = { apiKey: string; commerceAccount: string };
const auth = (merchant: Merchant) => ({ Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API });

async function readInvoice(request: APIRequestContext, merchant: Merchant, id: string) {
  const response = await request.get(`/api/commerce/payment-invoices/${id}`, { headers: auth(merchant) });
  expect(response.status()).toBe(200);
  return (await response.json()).data.attributes as Record<string, unknown>;
}

/** Provider B's notification, signed the way B signs: `X-Notification-Signature: t=…,v1=hex HMAC-SHA256(secret, "t.id.body")`. */
function bCallback(secret: string, notificationId: string, body: Record<string, unknown>) {
  const rawBody = JSON.stringify(body);
  const timestamp = Math.floor(Date.now() / 1000);
  const digest = createHmac("sha256", secret).update(`${timestamp}.${notificationId}.${rawBody}`).digest("hex");
  return {
    headers: { "content-type": "application/json", "x-notification-id": notificationId, "x-notification-signature": `t=${timestamp},v1=${digest}` },
    data: rawBody,
  };
}

test("a Provider B callback to the connection's Callback URL settles a payment waiting at 3-D Secure; forged and replayed ones change nothing", async ({
  browser,
  page,
  baseURL,
}) => {
  test.slow();
  const merchant = await merchantWithKey(browser);
  const credentials = sampleCredentials("provider-b", "h2h", "test");
  const created = await page.request.post("/api/connections", {
    headers: auth(merchant),
    data: {
      data: {
        type: "connection",
        attributes: { provider: "provider-b", kind: "h2h", label: `callbacks e2e ${randomBytes(3).toString("hex")}`, mode: "test", credentials },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const connectionId = ((await created.json()) as { data: { id: string } }).data.id;

  // The owner finds the address to register with the provider on the connection page.
  await signIn(page, merchant.email, merchant.password);
  await expect(page).not.toHaveURL(/sign-in/);
  await page.goto(`/connections/${connectionId}`);
  const field = page.getByLabel("Callback URL");
  await expect(field).toHaveValue(`${baseURL}/api/callbacks/provider-b/${connectionId}`);
  await expect(field).toHaveAttribute("readonly", "");
  const url = await field.inputValue();

  const invoiceResponse = await page.request.post("/api/commerce/payment-invoices", {
    headers: auth(merchant),
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          commerce_account: merchant.commerceAccount,
          reference_id: `cb-${randomBytes(6).toString("hex")}`,
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
  const invoice = (await invoiceResponse.json()).data as { id: string; attributes: Record<string, unknown> };

  // The customer pays with the 3-D Secure card and stops at the provider's 3-D Secure page.
  const customer = await browser.newPage();
  await customer.goto(new URL(String(invoice.attributes.hpp_url)).pathname);
  await customer.getByRole("button", { name: /4000 0000 0000 3220/ }).click();
  await customer.getByLabel("Cardholder name").fill("Test Holder");
  await customer.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(customer).toHaveURL(/\/sandbox\/3ds\/provider-b\//);
  await customer.close();
  expect(await readInvoice(page.request, merchant, invoice.id)).toMatchObject({ status: "process_pending" });

  const attempts = await page.request.get(`/api/commerce/payment-invoices/${invoice.id}/attempts`, { headers: auth(merchant) });
  expect(attempts.status()).toBe(200);
  const [attempt] = (await attempts.json()).data as { id: string; attributes: { provider_reference: string } }[];
  const success = {
    event: "charge.updated",
    txn: attempt!.attributes.provider_reference,
    order_ref: attempt!.id,
    result: "ok",
    sum: "100.50",
    cur: "EUR",
    captured_sum: "100.50",
  };

  const forged = await page.request.post(url, bCallback("not-the-secret", `ntf_e2e_${randomBytes(6).toString("hex")}`, success));
  expect(forged.status()).toBe(401);
  expect((await forged.json()).errors[0]).toMatchObject({ status: "401", detail: "invalid signature" });
  expect(await readInvoice(page.request, merchant, invoice.id)).toMatchObject({ status: "process_pending" });

  const valid = bCallback(String(credentials.secret_key), `ntf_e2e_${randomBytes(6).toString("hex")}`, success);
  const accepted = await page.request.post(url, valid);
  expect(accepted.status(), await accepted.text()).toBe(200);
  expect(await accepted.json()).toEqual({ received: true, outcome: "applied" });
  expect(await readInvoice(page.request, merchant, invoice.id)).toMatchObject({ status: "processed", resolution: "ok", processed_amount: "100.50" });

  const replayed = await page.request.post(url, valid);
  expect(replayed.status()).toBe(401);
  expect((await replayed.json()).errors[0]).toMatchObject({ detail: "replayed" });
});

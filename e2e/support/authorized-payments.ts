import { randomBytes } from "node:crypto";
import { expect, type Browser, type Page } from "@playwright/test";
import { merchantWithKey, signIn, type Account } from "./accounts";

const JSON_API = { "Content-Type": "application/vnd.api+json" };

export type CardMerchant = Account & { apiKey: string; connectionId: string };

/** A merchant with an API key and a Provider B test connection (it authorizes, captures part, voids and keeps cards), made as a client would. */
export async function merchantWithProviderB(browser: Browser, page: Page): Promise<CardMerchant> {
  const merchant = await merchantWithKey(browser);
  const credentials = { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" };
  const connection = await page.request.post("/api/connections", {
    headers: { Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API },
    data: { data: { type: "connection", attributes: { provider: "provider-b", kind: "h2h", label: "B cards", mode: "test", credentials, constants: {} } } },
  });
  expect(connection.status(), await connection.text()).toBe(201);
  return { ...merchant, connectionId: (await connection.json()).data.id as string };
}

/**
 * A payment of `amount` EUR for the customer `reference` (named Ada Lovelace), paid on the hosted
 * page with 4242: `flow` authorize leaves it authorized; `saveCard` asks to keep the card. Returns the invoice's id.
 */
export async function paidPayment(
  page: Page,
  merchant: CardMerchant,
  input: { amount: string; reference: string; flow: "authorize" | "charge"; saveCard?: boolean },
): Promise<string> {
  const created = await page.request.post("/api/commerce/payment-invoices", {
    headers: { Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: merchant.commerceAccount,
          currency: "EUR",
          amount: input.amount,
          reference_id: `pay-${randomBytes(6).toString("hex")}`,
          flow: input.flow,
          test_mode: true,
          customer: { name: "Ada Lovelace", email: "ada@example.com", reference_id: input.reference },
          ...(input.saveCard ? { gateway_options: { cardgate: { tokenize: "" } } } : {}),
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const invoice = (await created.json()).data as { id: string; attributes: { hpp_url: string } };
  await page.goto(new URL(invoice.attributes.hpp_url).pathname);
  await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  // An authorization reads to the customer as a payment received (the money is reserved); the invoice page tells them apart.
  await expect(page.getByTestId("pay-result")).toBeVisible();
  return invoice.id;
}

export async function signInOwner(page: Page, merchant: CardMerchant): Promise<void> {
  await signIn(page, merchant.email, merchant.password);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
}

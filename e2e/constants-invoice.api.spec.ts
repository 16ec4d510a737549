import { expect, test } from "@playwright/test";
import { createApiKey, signUp } from "./support/accounts";
import { expectSaved, openConnectForm, save, textbox, uniqueLabel } from "./support/connections";

/** Constants set in the browser reach the invoice's resolved_customer, defaults fill the rest. */
test("Provider B constants set in the browser and B's defaults fill an invoice created through the API without a customer", async ({ page, request }) => {
  const account = await signUp(page);
  await openConnectForm(page, "provider-b", "H2H merchant account");
  const label = uniqueLabel("B for invoices");
  await page.getByLabel("Label").fill(label);
  await textbox(page, "Terminal ID").fill("TERM-INV");
  await page.getByLabel("Secret key").fill("b-secret-for-invoices");
  await save(page);
  await expectSaved(page, label);

  const editor = page.getByRole("form", { name: "Connection constants" });
  await editor.getByLabel("Customer city", { exact: true }).fill("Berlin");
  await editor.getByLabel("Customer e-mail", { exact: true }).fill("shop@example.de");
  await editor.getByLabel("Customer name", { exact: true }).fill("Erika Mustermann");
  await editor.getByRole("button", { name: "Save constants" }).click();
  await expect(page.getByTestId("audit-trail")).toContainText("constants updated");

  const apiKey = await createApiKey(page);
  const referenceId = crypto.randomUUID();
  const response = await request.post("/api/commerce/payment-invoices", {
    headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/vnd.api+json" },
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: account.commerceAccount,
          currency: "EUR",
          amount: 25.5,
          reference_id: referenceId,
          flow: "charge",
          test_mode: true,
          options: { allow_partially: false },
        },
      },
    },
  });
  expect(response.status()).toBe(201);
  const invoice = (await response.json()).data;
  expect(invoice.id).toMatch(/^cpi_/);
  expect(invoice.attributes.customer).toBeNull();
  expect(invoice.attributes.resolved_customer).toEqual({
    name: "Erika Mustermann",
    email: "shop@example.de",
    phone: "+442079460000",
    language: "en",
    address: {
      city: "Berlin",
      country: "GB",
      region: "Northeast",
      full_address: "1 Canada Square, London E14 5AB",
      post_code: "E14 5AB",
    },
  });
  expect(invoice.attributes.amount).toBe(25.5);
  expect(invoice.attributes.hpp_url).toContain(`/pay/${invoice.id}`);

  const again = await request.get(`/api/commerce/payment-invoices/${invoice.id}`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(again.status()).toBe(200);
  expect((await again.json()).data.attributes.resolved_customer.address.city).toBe("Berlin");
});

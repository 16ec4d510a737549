import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { merchantWithKey, signIn } from "./support/accounts";

/**
 * What a merchant sees of a paid payment on its invoice page: the card's brand, last four and
 * issuing country, the 3-D Secure result and its liability shift, and the customer as the invoice
 * gave it, where Provider B's built-in defaults are marked as defaults (on the page and in the
 * export). A customer pays on the hosted page with the sandbox's 3-D Secure card, signed out.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

let apiKey = "";
let commerceAccount = "";
let owner = { email: "", password: "" };

test.beforeAll(async ({ browser, request }) => {
  const merchant = await merchantWithKey(browser);
  apiKey = merchant.apiKey;
  commerceAccount = merchant.commerceAccount;
  owner = { email: merchant.email, password: merchant.password };
  const connection = await request.post("/api/connections", {
    headers: { Authorization: `Bearer ${apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label: "B cards",
          mode: "test",
          credentials: { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" },
          constants: {},
        },
      },
    },
  });
  expect(connection.status()).toBe(201);
});

/** A Provider B payment whose customer gives a name only: B's defaults fill the e-mail and the rest. */
async function newInvoice(request: APIRequestContext): Promise<{ id: string; path: string }> {
  const response = await request.post("/api/commerce/payment-invoices", {
    headers: { Authorization: `Bearer ${apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: commerceAccount,
          currency: "EUR",
          amount: "42.00",
          reference_id: `card-${randomBytes(6).toString("hex")}`,
          flow: "charge",
          test_mode: true,
          customer: { name: "Ada Lovelace" },
        },
      },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const invoice = (await response.json()).data;
  return { id: invoice.id, path: new URL(invoice.attributes.hpp_url).pathname };
}

/** The customer pays with the sandbox's 3-D Secure card and answers its challenge. */
async function payWithThreeDs(page: Page, path: string, answer: "Pass" | "Fail") {
  await page.goto(path);
  await page.getByRole("button", { name: /4000 0000 0000 3220/ }).click();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Confirm your payment" })).toBeVisible();
  await page.getByRole("button", { name: answer, exact: true }).click();
  await expect(page.getByTestId("pay-result")).toBeVisible();
}

test("the invoice page shows the card's brand, last four, country, 3-D Secure and liability shift, and marks the provider's default customer values", async ({
  browser,
  page,
}) => {
  const passed = await newInvoice(page.request);
  const failed = await newInvoice(page.request);
  const customer = await browser.newContext();
  const payer = await customer.newPage();
  await payWithThreeDs(payer, passed.path, "Pass");
  await payWithThreeDs(payer, failed.path, "Fail");
  await customer.close();

  await signIn(page, owner.email, owner.password);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto(`/invoices/${passed.id}`);
    const section = page.getByRole("region", { name: "Card and customer" });
    await expect(section.getByTestId("payer-card")).toHaveText("Visa •••• 3220");
    await expect(section.getByTestId("payer-card-country")).toHaveText("United States (US)");
    await expect(section.getByTestId("payer-three-ds")).toContainText("Passed");
    await expect(section.getByTestId("payer-liability-shift")).toContainText("Yes: fraud chargebacks go to the card issuer");
    // The name is the customer's; the e-mail is Provider B's built-in value, and says so.
    await expect(section.getByTestId("payer-customer.name")).toHaveText("Ada Lovelace");
    await expect(section.getByTestId("payer-customer.email")).toHaveText("customer@example.com provider default, not given");
    await expect(page.getByTestId("customer-customer.email")).toContainText("provider default");
    const box = await section.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(width);
    expect(await page.content()).not.toContain("4000000000003220");
  }

  await page.goto(`/invoices/${failed.id}`);
  const section = page.getByRole("region", { name: "Card and customer" });
  await expect(section.getByTestId("payer-three-ds")).toContainText("Failed");
  await expect(section.getByTestId("payer-liability-shift")).toHaveText("No: stays with you");

  // The export marks the default too, and carries the card's facts without its number.
  const csv = await (await page.request.get("/api/dashboard/invoices/export")).text();
  const [header, ...rows] = csv
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
  const row = rows.find((cells) => cells[0] === passed.id)!;
  const cell = (name: string) => row[header!.indexOf(name)];
  expect(cell("customer_email")).toBe("customer@example.com");
  expect(cell("customer_email_source")).toBe("default");
  expect(cell("customer_name_source")).toBe("request");
  expect([cell("card_brand"), cell("card_last_four"), cell("card_country"), cell("three_ds"), cell("liability_shift")]).toEqual([
    "visa",
    "3220",
    "US",
    "passed",
    "yes",
  ]);
  expect(csv).not.toContain("4000000000003220");
});

import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { createApiKey, signUp } from "./support/accounts";

/**
 * Spec 4.2: a payout created without auto_process waits in created; the owner's
 * "Process payout" on its page sends it to Provider A's sandbox, and the page then shows the
 * attempt with its connection, outcome and redacted provider log.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

test("an owner processes a waiting payout from its page and sees the attempt", async ({ page }) => {
  const account = await signUp(page);
  const apiKey = await createApiKey(page);
  const headers = { Authorization: `Bearer ${apiKey}`, ...JSON_API };
  const label = `A payouts ${randomBytes(3).toString("hex")}`;
  const connection = await page.request.post("/api/connections", {
    headers,
    data: { data: { type: "connection", attributes: { provider: "provider-a", kind: "h2h", label, mode: "test", credentials: sampleCredentials("provider-a", "h2h", "test") } } },
  });
  expect(connection.status(), await connection.text()).toBe(201);
  const full = "4242424242424242";
  const created = await page.request.post("/api/commerce/payout-invoices", {
    headers,
    data: {
      data: {
        type: "payout-invoice",
        attributes: {
          commerce_account: account.commerceAccount,
          reference_id: `po-${randomBytes(6).toString("hex")}`,
          service: "payment_card_uah",
          currency: "UAH",
          amount: "250.75",
          test_mode: true,
          fields: { card_number: full },
          options: { auto_process: false },
          customer: { reference_id: "cust-2001", name: "Taras Shevchenko", address: { country: "UA", city: "Kyiv", street: "Khreshchatyk St 22" } },
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).data.id as string;

  await page.goto(`/invoices/${id}`);
  const attempts = page.getByTestId("invoice-attempts");
  await expect(attempts).toContainText("No attempts yet");
  await page.getByRole("button", { name: "Process payout" }).click();
  // The page refreshes once the provider answered: the button goes, the attempt appears.
  await expect(attempts.getByTestId("invoice-attempt")).toHaveCount(1);
  await expect(page.getByTestId("invoice-status")).toHaveText("processed");
  await expect(attempts).toContainText("Attempt 1");
  await expect(attempts).toContainText(label);
  await expect(attempts).toContainText("Succeeded");
  await attempts.getByText(/Provider log/).click();
  await expect(attempts.locator("pre").first()).toBeVisible();
  expect(await page.content()).not.toContain(full);
  await expect(page.getByRole("button", { name: "Process payout" })).toHaveCount(0);
});

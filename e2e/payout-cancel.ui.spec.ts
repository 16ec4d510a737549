import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";

/**
 * Cancel payout on a payout's page, at desktop and phone widths: a split payout Provider A's
 * sandbox is still paying (amount .41: its first part paid, the rest queued) is partly canceled
 * after a confirmation; a payout never sent is canceled outright and can no longer be processed.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

async function newPayout(
  request: APIRequestContext,
  headers: Record<string, string>,
  commerceAccount: string,
  amount: string,
  options: Record<string, unknown>,
) {
  const created = await request.post("/api/commerce/payout-invoices", {
    headers,
    data: {
      data: {
        type: "payout-invoice",
        attributes: {
          commerce_account: commerceAccount,
          reference_id: `po-${randomBytes(6).toString("hex")}`,
          service: "payment_card_uah",
          currency: "UAH",
          amount,
          test_mode: true,
          fields: { card_number: "4242424242424242" },
          options,
          customer: { name: "Taras Shevchenko", address: { country: "UA", city: "Kyiv" } },
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).data as { id: string; attributes: { status: string } };
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("an owner cancels a payout in progress (partly) and one never sent", async ({ page }) => {
      const account = await signUp(page);
      const apiKey = await createApiKey(page);
      const headers = { Authorization: `Bearer ${apiKey}`, ...JSON_API };
      const connection = await page.request.post("/api/connections", {
        headers,
        data: {
          data: {
            type: "connection",
            attributes: { provider: "provider-a", kind: "h2h", label: "A payouts", mode: "test", credentials: sampleCredentials("provider-a", "h2h", "test") },
          },
        },
      });
      expect(connection.status(), await connection.text()).toBe(201);

      const inProgress = await newPayout(page.request, headers, account.commerceAccount, "30000.41", { auto_process: true, split_mode: true });
      expect(inProgress.attributes.status).toBe("process_pending");
      await page.goto(`/invoices/${inProgress.id}`);
      const section = page.getByTestId("invoice-cancel");
      await section.getByRole("button", { name: "Cancel payout" }).click();
      await expect(section.getByTestId("cancel-payout-confirmation")).toContainText(
        "Cancel the payout of 30000.41 UAH? The provider stops the parts not yet paid",
      );
      await expect(section.getByRole("button", { name: "Cancel payout" })).toBeFocused();
      await expectNoSeriousViolations(page);
      await page.keyboard.press("Enter");
      await expect(page.getByTestId("invoice-status")).toHaveText("partially_canceled");
      await expect(page.getByRole("region", { name: "Timeline" })).toContainText("canceling");
      await expect(page.getByTestId("invoice-cancel")).toHaveCount(0);

      const waiting = await newPayout(page.request, headers, account.commerceAccount, "120.00", { auto_process: false });
      await page.goto(`/invoices/${waiting.id}`);
      await page.getByTestId("invoice-cancel").getByRole("button", { name: "Cancel payout" }).click();
      await expect(page.getByTestId("cancel-payout-confirmation")).toContainText("It has not been sent, so nothing will be paid.");
      await page.getByRole("button", { name: "Keep it" }).click();
      await expect(page.getByTestId("invoice-status")).toHaveText("created");
      // Escape keeps it too.
      await page.getByTestId("invoice-cancel").getByRole("button", { name: "Cancel payout" }).click();
      await expect(page.getByTestId("invoice-cancel").getByRole("button", { name: "Cancel payout" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("cancel-payout-confirmation")).toHaveCount(0);
      await expect(page.getByTestId("invoice-status")).toHaveText("created");
      await page.getByTestId("invoice-cancel").getByRole("button", { name: "Cancel payout" }).click();
      await page.getByTestId("invoice-cancel").getByRole("button", { name: "Cancel payout" }).click();
      await expect(page.getByTestId("invoice-status")).toHaveText("canceled");
      await expect(page.getByRole("button", { name: "Process payout" })).toHaveCount(0);
    });
  });
}

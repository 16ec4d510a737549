import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createApiKey, signUp } from "./support/accounts";

/**
 * The owner sets how long new invoices stay payable; an invoice created without its own
 * `lifetime` then expires that long after creation. Out-of-range values are refused on the field.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

test("the owner changes the invoice lifetime in Settings and new invoices expire after it", async ({ page }) => {
  const account = await signUp(page);
  const apiKey = await createApiKey(page);
  await page.goto("/settings");
  const field = page.getByLabel("Invoice lifetime (minutes)");
  await expect(field).toHaveValue("30");

  await field.fill("0");
  await page.getByRole("button", { name: "Save invoice lifetime" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");

  await field.fill("45");
  await field.press("Enter");
  await expect(page.getByText("Saved: new invoices expire 45 minutes after creation.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Invoice lifetime (minutes)")).toHaveValue("45");

  const headers = { Authorization: `Bearer ${apiKey}`, ...JSON_API };
  const connection = await page.request.post("/api/connections", {
    headers,
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label: "B lifetime",
          mode: "test",
          credentials: { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" },
        },
      },
    },
  });
  expect(connection.status(), await connection.text()).toBe(201);
  const created = await page.request.post("/api/commerce/payment-invoices", {
    headers,
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          commerce_account: account.commerceAccount,
          reference_id: `life-${randomBytes(5).toString("hex")}`,
          service: "payment_card_eur_hpp",
          currency: "EUR",
          amount: "5.00",
          flow: "charge",
          test_mode: true,
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { attributes } = (await created.json()).data as { attributes: { created: string; expires_at: string } };
  expect(new Date(attributes.expires_at).getTime() - new Date(attributes.created).getTime()).toBe(45 * 60 * 1000);
});

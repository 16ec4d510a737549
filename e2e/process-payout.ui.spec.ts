import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";

/**
 * Spec 4.2: a payout created without auto_process waits in created; the owner's
 * "Process payout" on its page first asks, stating amount, currency, masked card and connection
 * (Cancel and Escape send nothing), then sends it to Provider A's sandbox, and the page shows the
 * attempt with its connection, outcome and redacted provider log. With E2E_SCREENSHOTS set, screenshots process-confirm-*.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("an owner processes a waiting payout from its page and sees the attempt", async ({ page }) => {
  const account = await signUp(page);
  const apiKey = await createApiKey(page);
  const headers = { Authorization: `Bearer ${apiKey}`, ...JSON_API };
  const label = `A payouts ${randomBytes(3).toString("hex")}`;
  const connection = await page.request.post("/api/connections", {
    headers,
    data: {
      data: {
        type: "connection",
        attributes: { provider: "provider-a", kind: "h2h", label, mode: "test", credentials: sampleCredentials("provider-a", "h2h", "test") },
      },
    },
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

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/invoices/${id}`);
  const attempts = page.getByTestId("invoice-attempts");
  await expect(attempts).toContainText("No attempts yet");
  const process = page.getByRole("button", { name: "Process payout" });
  const dialog = page.getByRole("alertdialog", { name: "Confirm the payout" });
  const confirm = dialog.getByRole("button", { name: "Confirm payout" });
  const statement = `Send 250.75 UAH to card 424242******4242 through ${label} (Provider A, test mode)?`;

  // The first press only asks: the statement, focus on Confirm; Cancel sends nothing and gives focus back.
  await process.click();
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("process-payout-confirmation")).toContainText(statement);
  await expect(page.getByTestId("process-payout-confirmation")).toContainText("moves on to the next one in your routing order");
  await expect(confirm).toBeFocused();
  await expect(dialog).toHaveAccessibleDescription(new RegExp(`^${escapeRegExp(statement)}`));
  await screenshot(page, "process-confirm-1280", { fullPage: true });
  await expectNoSeriousViolations(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(process).toBeFocused();
  await expect(attempts).toContainText("No attempts yet");

  // Keyboard: Enter opens, Escape cancels, Enter opens again; at a phone's width the buttons are 44 px tall.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.keyboard.press("Enter");
  await expect(confirm).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(process).toBeFocused();
  await page.reload();
  await expect(page.getByTestId("invoice-status")).toHaveText("created");
  await expect(attempts).toContainText("No attempts yet");
  await process.focus();
  await page.keyboard.press("Enter");
  await expect(confirm).toBeFocused();
  for (const button of [confirm, dialog.getByRole("button", { name: "Cancel" })]) {
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  await screenshot(page, "process-confirm-390", { fullPage: true });
  await expectNoSeriousViolations(page);
  // While the action runs (held back here a moment) the confirmation is busy: "Sending…", both buttons disabled.
  await page.route(`**/invoices/${id}`, async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await page.keyboard.press("Enter");
  const sending = dialog.getByRole("button", { name: "Sending…" });
  await expect(sending).toBeDisabled();
  await expect(sending).toHaveAttribute("aria-busy", "true");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(sending).toBeVisible();
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

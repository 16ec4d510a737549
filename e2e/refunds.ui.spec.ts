import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { merchantWithKey, signIn } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { screenshot } from "./support/screenshots";

/**
 * Refunds on a payment's page, at desktop and phone widths: a customer pays on the hosted page
 * (Provider B's sandbox), then the owner refunds part of it with the mouse (review, confirmation
 * naming amount, currency and customer, confirm) and the rest with the keyboard alone; a refusal
 * (more than is left) lands on the amount field; the refunds, the invoice's status and its
 * timeline follow every step.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("an owner refunds part of a paid invoice, then the rest with the keyboard", async ({ browser, page }) => {
      await paidInvoicePage(browser, page, "100.50", { name: "Ada Lovelace", email: "ada@example.com", address: { country: "GB", city: "London" } });
      const section = page.getByTestId("invoice-refunds");
      await expect(section).toContainText("No refunds yet.");
      await expect(page.getByTestId("refunded-amount")).toHaveText("0.00 EUR");

      // Part of it, with the mouse; first more than was paid, which Review refuses on the field.
      await section.getByRole("button", { name: "Refund", exact: true }).click();
      const amount = section.getByLabel("Amount (EUR)");
      await expect(amount).toHaveValue("100.50");
      await amount.fill("200.00");
      await section.getByRole("button", { name: "Review refund" }).click();
      await expect(section.getByText(/more than is left to refund: at most 100\.50 EUR/)).toBeVisible();
      await expect(amount).toHaveAttribute("aria-invalid", "true");
      await expect(section.getByTestId("refund-confirmation")).toHaveCount(0);
      await amount.fill("30.00");
      await section.getByLabel("Reason (optional)").fill("One item returned");
      await section.getByRole("button", { name: "Review refund" }).click();
      await expect(section.getByTestId("refund-confirmation")).toHaveText(/Refund 30\.00 EUR to Ada Lovelace\?/);
      await expect(section.getByRole("button", { name: "Confirm refund" })).toBeFocused();
      await expectNoSeriousViolations(page);
      await screenshot(page, `refund-confirm-${viewport.width}`, { fullPage: true });
      await section.getByRole("button", { name: "Confirm refund" }).click();
      await expect(section.getByTestId("refund-result")).toHaveText("Refund of 30.00 EUR refunded.");
      await expect(section.getByTestId("refund-item")).toHaveCount(1);
      await expect(section.getByTestId("refund-item")).toContainText("Refunded");
      await expect(section.getByTestId("refund-item")).toContainText("Reason: One item returned");
      await expect(page.getByTestId("refunded-amount")).toHaveText("30.00 EUR");
      await expect(page.getByTestId("invoice-status")).toHaveText("partially_refunded");

      // The rest, with the keyboard alone: the amount is prefilled with what is left.
      await section.getByRole("button", { name: "Refund", exact: true }).focus();
      await page.keyboard.press("Enter");
      await expect(amount).toHaveValue("70.50");
      await amount.focus();
      await page.keyboard.press("Enter");
      await expect(section.getByTestId("refund-confirmation")).toHaveText(/Refund 70\.50 EUR to Ada Lovelace\?/);
      await expect(section.getByRole("button", { name: "Confirm refund" })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(section.getByTestId("refund-result")).toHaveText("Refund of 70.50 EUR refunded.");
      // The form is gone: the result has the focus, not the page's body.
      await expect(section.getByTestId("refund-result")).toBeFocused();
      await expect(section.getByTestId("refund-item")).toHaveCount(2);
      await expect(page.getByTestId("invoice-status")).toHaveText("refunded");
      await expect(section.getByTestId("refund-blocked")).toHaveText("This payment is refunded in full.");
      await expect(section.getByRole("button", { name: "Refund", exact: true })).toHaveCount(0);
      const timeline = page.getByRole("region", { name: "Timeline" });
      await expect(timeline).toContainText("refunding");
      await expect(timeline).toContainText("partially_refunded");
      // Every refund's steps are in the timeline, in order, between the status changes.
      await expect(timeline.getByTestId("timeline-refund-step")).toHaveText([
        /Refund of 30\.00 EUR asked for/,
        /Refund of 30\.00 EUR refunded/,
        /Refund of 70\.50 EUR asked for/,
        /Refund of 70\.50 EUR refunded/,
      ]);
      await screenshot(page, `refund-done-${viewport.width}`, { fullPage: true });
    });

    test("Review refuses an amount that is not a refund, on its field, keyboard only; the confirmation names no provider default as the payer", async ({
      browser,
      page,
    }) => {
      // No customer sent: Provider B's default name ("Customer") is no payer's name.
      await paidInvoicePage(browser, page, "110.00");
      await expect(page.getByTestId("customer-customer.name")).toContainText("default");
      const section = page.getByTestId("invoice-refunds");
      await section.getByRole("button", { name: "Refund", exact: true }).focus();
      await page.keyboard.press("Enter");
      const amount = section.getByLabel("Amount (EUR)");
      await expect(amount).toHaveValue("110.00");
      await expect(section.getByText("Up to 110.00 EUR.")).toBeVisible();
      for (const [typed, reason] of [
        ["abc", /amount must be a decimal number/],
        ["-5", /amount must be greater than zero/],
        ["0.00", /amount must be greater than zero/],
        ["120.00 EUR", /amount must/],
        ["120.00", /more than is left to refund: at most 110\.00 EUR/],
      ] as const) {
        await amount.focus();
        await page.keyboard.press("ControlOrMeta+a");
        await page.keyboard.type(typed);
        await page.keyboard.press("Enter");
        await expect(section.locator(`[id="${await amount.getAttribute("id")}-error"]`)).toHaveText(reason);
        await expect(amount).toHaveAttribute("aria-invalid", "true");
        await expect(section.getByTestId("refund-confirmation")).toHaveCount(0);
        await expect(section.getByRole("button", { name: "Confirm refund" })).toHaveCount(0);
      }
      await expect(section.getByTestId("refund-item")).toHaveCount(0);
      await amount.focus();
      await page.keyboard.press("ControlOrMeta+a");
      await page.keyboard.type("10.00");
      await page.keyboard.press("Enter");
      await expect(section.getByTestId("refund-confirmation")).toHaveText("Refund 10.00 EUR? The provider sends the money back; this cannot be undone.");
      await expect(section.getByRole("button", { name: "Confirm refund" })).toBeFocused();
    });
  });
}

test("a refund the provider declines says so, the payment stays refundable, and deleting its connection warns", async ({ browser, page }) => {
  const connectionId = await refundOnce(browser, page, "10.32", "Failed");
  await expect(page.getByTestId("invoice-refunds").getByTestId("refund-result")).toHaveText(/Refund of 10\.32 EUR failed: The issuer refused the refund\./);
  await expect(page.getByTestId("invoice-status")).toHaveText("processed");
  await expect(page.getByTestId("invoice-refunds").getByRole("button", { name: "Refund", exact: true })).toBeVisible();

  // Refunds go back only through the connection that took the payment: Delete says so, and offers Disable instead.
  await page.goto(`/connections/${connectionId}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page.getByTestId("delete-refund-warning")).toContainText("1 payment taken through it can still be refunded");
  await page.getByRole("button", { name: "Keep it" }).click();
});

test("a refund the provider takes as pending settles on its own: the provider's callback says so and the page follows", async ({ browser, page }) => {
  await refundOnce(browser, page, "10.31", "Pending");
  const section = page.getByTestId("invoice-refunds");
  await expect(page.getByTestId("invoice-status")).toHaveText("refunding");
  // The sandbox settles it a few seconds later and notifies; the page reads it again while it is open.
  await expect(section.getByTestId("refund-item")).toContainText("Refunded", { timeout: 30_000 });
  await expect(page.getByTestId("refunded-amount")).toHaveText("10.31 EUR");
  await expect(page.getByTestId("invoice-status")).toHaveText("partially_refunded");
  const callback = page.getByTestId("invoice-callback").filter({ hasText: "Refund rf_" });
  await expect(callback).toHaveCount(1);
  await expect(callback).toContainText("Applied");
  await expect(callback).toContainText("succeeded");
  await expect(page.getByRole("region", { name: "Timeline" }).getByTestId("timeline-refund-step")).toHaveText([
    /Refund of 10\.31 EUR asked for/,
    /Refund of 10\.31 EUR refunded/,
  ]);
});

test("a paid invoice of 120 EUR: one amount format everywhere, settled words, nothing polled or scheduled; the list's status filter offers what can happen", async ({
  browser,
  page,
}) => {
  const requests: string[] = [];
  await paidInvoicePage(browser, page, "120");
  const id = page.url().split("/").at(-1)!;
  await expect(page.getByTestId("invoice-status")).toHaveText("processed");
  await expect(page.getByTestId("invoice-amount")).toHaveText("120.00 EUR");
  await expect(page.getByTestId("processed-amount")).toHaveText("120.00 EUR");
  await expect(page.getByTestId("refunded-amount")).toHaveText("0.00 EUR");
  // A processed payment changes only when a refund is asked for: the page says so and stops checking.
  await expect(page.getByTestId("invoice-live")).toHaveText("Settled: it changes only if a refund is asked for.");
  const schedule = page.getByTestId("invoice-schedule");
  await expect(schedule.getByTestId("schedule-empty")).toHaveText("Nothing is scheduled for this invoice.");
  await expect(schedule).not.toContainText("Expiry check");
  await expect(schedule.getByTestId("schedule-expires")).toContainText("(it no longer expires: the invoice is processed)");
  await expect(schedule).not.toContainText("Expires at");
  page.on("request", (request) => {
    if (request.url().includes(`/api/dashboard/invoices/${id}`)) requests.push(request.url());
  });
  // Longer than the 3 s the page checks at while an invoice can change on its own.
  await page.waitForTimeout(4_000);
  expect(requests).toEqual([]);
  await expectNoSeriousViolations(page);
  await screenshot(page, "processed-settled", { fullPage: true });

  // Refunded in full, it is final.
  const section = page.getByTestId("invoice-refunds");
  await section.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(section.getByLabel("Amount (EUR)")).toHaveValue("120.00");
  await section.getByRole("button", { name: "Review refund" }).click();
  await expect(section.getByTestId("refund-confirmation")).toHaveText("Refund 120.00 EUR? The provider sends the money back; this cannot be undone.");
  await section.getByRole("button", { name: "Confirm refund" }).click();
  await expect(section.getByTestId("refund-result")).toHaveText("Refund of 120.00 EUR refunded.");
  await expect(page.getByTestId("invoice-status")).toHaveText("refunded");
  await expect(page.getByTestId("invoice-live")).toHaveText("Final: this invoice will not change any more.");

  await page.goto("/invoices");
  await expect(page.locator(`[data-testid="invoice-row"][data-invoice-id="${id}"]`)).toContainText("120.00 EUR");
  const status = page.getByLabel("Status");
  const offered = async () => status.locator("option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value).filter(Boolean));
  const any = await offered();
  expect(any).toEqual(expect.arrayContaining(["refunding", "partially_refunded", "refunded", "canceling", "canceled", "partially_canceled"]));
  expect(any).not.toContain("terminated");
  await page.goto("/invoices?type=payment");
  const payments = await offered();
  expect(payments).toEqual(expect.arrayContaining(["processed", "refunding", "partially_refunded", "refunded"]));
  expect(payments.filter((value) => ["canceling", "canceled", "partially_canceled", "terminated"].includes(value))).toEqual([]);
  await page.goto("/invoices?type=payout");
  const payouts = await offered();
  expect(payouts).toEqual(expect.arrayContaining(["canceling", "canceled", "partially_canceled"]));
  expect(payouts.filter((value) => ["refunding", "partially_refunded", "refunded", "terminated"].includes(value))).toEqual([]);
});

/**
 * A merchant with a Provider B test connection and a payment of `amount` EUR its customer paid on
 * the hosted page (4242); the owner then signed in on the invoice's page. Returns the connection's id.
 */
async function paidInvoicePage(browser: Browser, page: Page, amount: string, customer?: Record<string, unknown>): Promise<{ connectionId: string }> {
  const merchant = await merchantWithKey(browser);
  const headers = { Authorization: `Bearer ${merchant.apiKey}`, ...JSON_API };
  const credentials = { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" };
  const connection = await page.request.post("/api/connections", {
    headers,
    data: { data: { type: "connection", attributes: { provider: "provider-b", kind: "h2h", label: "B refunds", mode: "test", credentials, constants: {} } } },
  });
  expect(connection.status(), await connection.text()).toBe(201);
  const created = await page.request.post("/api/commerce/payment-invoices", {
    headers,
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: merchant.commerceAccount,
          currency: "EUR",
          amount,
          reference_id: `refund-${randomBytes(6).toString("hex")}`,
          flow: "charge",
          test_mode: true,
          ...(customer ? { customer } : {}),
        },
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const invoice = (await created.json()).data as { id: string; attributes: { hpp_url: string } };

  // The customer pays on the hosted page.
  await page.goto(new URL(invoice.attributes.hpp_url).pathname);
  await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByTestId("pay-result")).toContainText("Payment received");

  await signIn(page, merchant.email, merchant.password);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await page.goto(`/invoices/${invoice.id}`);
  return { connectionId: (await connection.json()).data.id as string };
}

/** A paid invoice and one refund of `amount` from its page; the refund's status label is checked. Returns the connection's id. */
async function refundOnce(browser: Browser, page: Page, amount: string, label: string): Promise<string> {
  const { connectionId } = await paidInvoicePage(browser, page, "50.00");
  const section = page.getByTestId("invoice-refunds");
  await section.getByRole("button", { name: "Refund", exact: true }).click();
  await section.getByLabel("Amount (EUR)").fill(amount);
  await section.getByRole("button", { name: "Review refund" }).click();
  await section.getByRole("button", { name: "Confirm refund" }).click();
  await expect(section.getByTestId("refund-item").first()).toContainText(label);
  return connectionId;
}

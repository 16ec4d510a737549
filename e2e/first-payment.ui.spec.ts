import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { newAccount, submitSignUpForm } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { textbox } from "./support/connections";
import { waitForHydration } from "./support/dev-server";
import { screenshot } from "./support/screenshots";
import { addWebhookEndpoint, startWebhookReceiver } from "./support/webhooks";

/**
 * A newcomer's first payment through the dashboard alone, each page reached by what the one before
 * offers (links, buttons, the outbox), never by typing an address: sign up, confirm from the outbox,
 * connect Provider B with Test connection before saving, make an API key, add a webhook endpoint,
 * compose a test invoice, pay it on its hosted page, and see the event delivered and every setup
 * step ticked. With E2E_SCREENSHOTS set, each step is saved under /tmp/shots-<port>/first-payment-*.
 */
const shot = (page: Page, name: string) => screenshot(page, `first-payment-${name}`, { fullPage: true });

const step = (page: Page, name: string) => page.getByTestId(`setup-step-${name}`);

test("a newcomer's first payment through the dashboard alone: sign up, connect with Test before saving, key, webhook, compose, pay; every setup step ticks", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const receiver = await startWebhookReceiver();
  try {
    // Sign up; the mail is in the outbox, and the page says so with a link.
    const account = newAccount();
    await page.goto("/sign-up");
    await waitForHydration(page, "form");
    await submitSignUpForm(page, account);
    await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
    await shot(page, "1-check-email");
    await page.getByTestId("sign-up-outbox").getByRole("link", { name: "outbox" }).click();
    const mail = page.getByTestId("outbox-message").filter({ has: page.getByTestId("outbox-to").getByText(account.email, { exact: true }) });
    await mail.locator('a[href*="/sign-up/confirm/"]').click();
    // The browser that signed up is not asked for the password again.
    await waitForHydration(page, 'form[aria-label="Finish creating your account"]');
    await expect(page.getByLabel("Password")).toHaveCount(0);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
    await expect(page.getByTestId("setup-progress")).toHaveText("0 of 5 steps done");
    await shot(page, "2-home-new");

    // Connect Provider B from the checklist's link; Test before saving, then Save.
    await step(page, "connected").getByRole("link", { name: "Connect a provider" }).click();
    await page.getByRole("link", { name: "Provider B", exact: true }).click();
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByRole("radio", { name: /^H2H merchant account/ }).check();
    const form = page.getByRole("form", { name: "New H2H merchant account" });
    const credentials = sampleCredentials("provider-b", "h2h", "test");
    await textbox(page, "Label").fill("My Provider B");
    await textbox(page, "Terminal ID").fill(`TERM-${randomBytes(4).toString("hex")}`);
    await form.getByLabel("Secret key").fill(String(credentials.secret_key));
    await form.getByRole("button", { name: "Test connection" }).click();
    await expect(form.getByTestId("test-connection-result")).toHaveText("Reachable — the sandbox accepted these credentials (not saved yet)");
    await shot(page, "3-test-before-save");
    await form.getByRole("button", { name: "Save connection" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "My Provider B" })).toBeVisible();
    // What was saved is what passed the test: the connection starts out tested.
    await expect(page.getByTestId("audit-trail")).toContainText("ok, before saving");
    await shot(page, "4-connection");

    // The checklist leads on: an API key, then a webhook endpoint at this test's receiver.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
    await expect(page.getByTestId("setup-progress")).toHaveText("2 of 5 steps done");
    await expect(step(page, "tested")).toContainText("Done");
    await step(page, "apiKey").getByRole("link", { name: "Create an API key" }).click();
    await expect(page).toHaveURL(/\/api-keys$/);
    await page.getByLabel("Key name").fill("Shop backend");
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByTestId("new-api-key")).toHaveText(/^pok_test_/);
    await shot(page, "5-api-key");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
    receiver.state.secret = await addWebhookEndpoint(page, receiver.url, { description: "Shop" });
    await shot(page, "6-webhook-endpoint");

    // Compose a test invoice: routed automatically to the new connection; its hosted page from the toast.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
    await expect(page.getByTestId("setup-progress")).toHaveText("4 of 5 steps done");
    await step(page, "paidTestInvoice").getByRole("link", { name: "Compose a test invoice" }).click();
    await expect(page).toHaveURL(/\/invoices\/new$/);
    await page.getByRole("button", { name: /^Provider B payment payment_card/ }).click();
    await expect(page.getByRole("radio", { name: /^Route automatically/ })).toBeChecked();
    await expect(page.getByTestId("template-status")).toContainText("routed automatically: it goes to My Provider B first.");
    await page.getByRole("button", { name: "Send invoice" }).click();
    await expect(page.getByTestId("composer-status")).toHaveText("201");
    await expect(page.getByTestId("composer-routed")).toHaveText("Routed to My Provider B (Provider B) — First in routing order");
    const invoiceId: string = JSON.parse((await page.getByTestId("composer-response").textContent()) ?? "{}").data.id;
    await shot(page, "7-composed");
    await page
      .getByTestId("toast-region")
      .getByTestId("toast")
      .filter({ hasText: `Invoice ${invoiceId} created.` })
      .getByRole("link", { name: "Open its hosted page" })
      .click();

    // The customer pays on the hosted page.
    await expect(page).toHaveURL(new RegExp(`/pay/${invoiceId}`));
    await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
    await page.getByLabel("Cardholder name").fill("Ada Lovelace");
    await shot(page, "8-hosted-page");
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await expect(page.getByTestId("pay-result")).toContainText("Payment received");
    await shot(page, "9-paid");

    // The receiver got the signed status change; the event log says delivered.
    const statuses = () =>
      [...receiver.state.verified.values()]
        .filter((event) => event.body.meta.event_type === "invoice.status_changed")
        .map((event) => event.body.data.attributes.status);
    await expect.poll(statuses, { timeout: 30_000 }).toContain("processed");
    expect(receiver.state.rejected).toBe(0);
    await page.goto("/home");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
    const log = page.getByRole("region", { name: "Event log" });
    await expect(async () => {
      await page.reload();
      await expect(log.getByTestId("event-log-row").filter({ hasText: "processed" }).getByTestId("event-log-state")).toHaveText("Delivered", {
        timeout: 1_000,
      });
    }).toPass({ timeout: 15_000 });
    await shot(page, "10-event-log");

    // Home: setup done, the overview counts the payment, and the invoice is one click away.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
    await expect(page.getByRole("heading", { name: "Overview", level: 2 })).toBeVisible();
    await page.getByTestId("setup-done").getByText("Setup checklist (done)").click();
    await expect(page.getByTestId("setup-progress")).toHaveText("5 of 5 steps done");
    await page.getByRole("region", { name: "Recent test invoices" }).getByRole("link", { name: invoiceId }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(invoiceId);
    await expect(page.getByTestId("invoice-routing-reason")).toContainText(/first in routing order/i);
    await shot(page, "11-invoice");
    await expectNoSeriousViolations(page);
  } finally {
    await receiver.close();
  }
});

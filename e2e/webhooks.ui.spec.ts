import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { sharedTest } from "./support/fixtures";
import { screenshot, screenshotsDir } from "./support/screenshots";
import { addWebhookEndpoint, startWebhookReceiver as startReceiver } from "./support/webhooks";

/**
 * Against the built app (NODE_ENV=production, the operator allowing loopback receivers): the
 * owner adds two endpoints at receivers this test runs (one for refund events only), sees each
 * signing secret once, sends a test event, rolls a secret; then a payment on the hosted page and
 * a refund are delivered by the app's job workers to the endpoints that take them, each verified
 * with its own secret by the function the docs page shows; the event log filters, opens an event
 * and resends it to one endpoint.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };

/** At a phone's width nothing may push the page wider than the screen. */
async function expectNoSideways(page: Page) {
  await page.setViewportSize({ width: 390, height: 1000 });
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await page.setViewportSize({ width: 1280, height: 1000 });
}

async function hostedInvoice(page: Page, apiKey: string, commerceAccount: string): Promise<string> {
  const connection = await page.request.post("/api/connections", {
    headers: { Authorization: `Bearer ${apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "connection",
        attributes: {
          provider: "provider-b",
          kind: "h2h",
          label: "B webhooks",
          mode: "test",
          credentials: { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" },
          constants: {},
        },
      },
    },
  });
  expect(connection.status()).toBe(201);
  const response = await page.request.post("/api/commerce/payment-invoices", {
    headers: { Authorization: `Bearer ${apiKey}`, ...JSON_API },
    data: {
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: commerceAccount,
          currency: "EUR",
          amount: "100.50",
          reference_id: `wh-${randomBytes(6).toString("hex")}`,
          flow: "charge",
          test_mode: true,
        },
      },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data.id as string;
}

test("owner adds two endpoints (one for refunds only), sees each secret once, and every event arrives signed where it belongs; the log filters, opens and resends", async ({
  page,
}) => {
  // One walk through the whole flow, payments and retries by the app's own workers included.
  test.setTimeout(120_000);
  const orders = await startReceiver();
  const refunds = await startReceiver();
  try {
    const account = await signUp(page);
    const apiKey = await createApiKey(page);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
    const endpoints = page.getByRole("region", { name: "Endpoints" });
    await expect(endpoints.getByTestId("no-endpoints")).toBeVisible();

    // The server's check (production: https only) lands on the field.
    const add = endpoints.getByRole("form", { name: "Add endpoint" });
    await add.getByLabel("Endpoint URL").fill("http://shop.example.com/hooks");
    await add.getByRole("button", { name: "Add endpoint" }).click();
    await expect(add.getByText("Endpoint URL must use https:// (plain http is refused in production).")).toBeVisible();
    await expect(add.getByLabel("Endpoint URL")).toHaveAttribute("aria-invalid", "true");

    orders.state.secret = await addWebhookEndpoint(page, orders.url, { description: "Orders" });
    refunds.state.secret = await addWebhookEndpoint(page, refunds.url, {
      description: "Refunds",
      eventTypes: ["refund.created", "refund.succeeded", "refund.failed"],
    });
    expect(refunds.state.secret).not.toBe(orders.state.secret);
    const ordersCard = endpoints.getByRole("listitem", { name: `Endpoint ${orders.url}` });
    const refundsCard = endpoints.getByRole("listitem", { name: `Endpoint ${refunds.url}` });
    await expect(ordersCard.getByTestId("endpoint-event-types")).toContainText("all events");
    await expect(refundsCard.getByTestId("endpoint-event-types")).toContainText("refund.created");
    await expect(refundsCard.getByTestId("endpoint-event-types")).not.toContainText("invoice.status_changed");

    await ordersCard.getByRole("button", { name: "Send test event" }).click();
    await expect(ordersCard.getByTestId("webhook-answer")).toContainText("Test event: delivered — HTTP 200");
    await expect(ordersCard.getByTestId("webhook-answer")).toContainText('"ok":true');
    expect([...orders.state.verified.values()].map((entry) => entry.body.meta.event_type)).toEqual(["webhook.test"]);
    expect(refunds.state.arrivals).toEqual([]);

    // Shown once: a reload shows when they were made, never a secret.
    await page.reload();
    await expect(ordersCard.getByTestId("webhook-secret-status")).toContainText("Signing secret made");
    await expect(page.getByTestId("new-webhook-secret")).toHaveCount(0);
    const html = await page.content();
    expect(html).not.toContain(orders.state.secret);
    expect(html).not.toContain(refunds.state.secret);

    // Roll: a new secret shown once; the receiver still knows only the old one and still verifies (two v1 values for 24 hours).
    page.once("dialog", (dialog) => void dialog.accept());
    await ordersCard.getByRole("button", { name: "Roll secret" }).click();
    await expect(ordersCard.getByTestId("new-webhook-secret")).toHaveText(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect((await ordersCard.getByTestId("new-webhook-secret").textContent())?.trim()).not.toBe(orders.state.secret);
    await ordersCard.getByRole("button", { name: "Done" }).click();
    await expect(ordersCard.getByText(/A previous secret still signs until/)).toBeVisible();
    await ordersCard.getByRole("button", { name: "Send test event" }).click();
    await expect(ordersCard.getByTestId("webhook-answer")).toContainText("Test event: delivered — HTTP 200");
    expect([...orders.state.verified.values()].at(-1)!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);

    // A payment on the hosted page, then a refund through the API: delivered by the app's workers.
    const invoiceId = await hostedInvoice(page, apiKey, account.commerceAccount);
    await page.goto(`/pay/${invoiceId}`);
    await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
    await page.getByLabel("Cardholder name").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await expect(page.getByTestId("pay-result")).toContainText("Payment received");
    const refund = await page.request.post(`/api/commerce/payment-invoices/${invoiceId}/refunds`, {
      headers: { Authorization: `Bearer ${apiKey}`, ...JSON_API },
      data: { data: { type: "refund", attributes: { reference_id: `rf-${randomBytes(4).toString("hex")}`, amount: "10.00" } } },
    });
    expect(refund.status(), await refund.text()).toBe(201);
    const about = (receiver: typeof orders) => [...receiver.state.verified.values()].filter((entry) => entry.body.meta.event_type !== "webhook.test");
    await expect
      .poll(() => about(orders).map((entry) => entry.body.meta.event_type), { timeout: 30_000 })
      .toEqual(expect.arrayContaining(["invoice.status_changed", "refund.created", "refund.succeeded"]));
    await expect
      .poll(
        () =>
          about(refunds)
            .map((entry) => entry.body.meta.event_type)
            .sort(),
        { timeout: 30_000 },
      )
      .toEqual(["refund.created", "refund.succeeded"]);
    expect(orders.state.rejected + refunds.state.rejected).toBe(0);
    // One invoice's events are numbered 1, 2, 3 … in the order they happened, at every endpoint.
    const sequences = about(orders)
      .map((entry) => entry.body.meta.sequence!)
      .sort((a, b) => a - b);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
    const processed = about(orders).find(
      (entry) => entry.body.meta.event_type === "invoice.status_changed" && entry.body.data.attributes.status === "processed",
    )!;

    // The log: every event, filtered by type, endpoint, invoice and state.
    await page.goto("/webhooks");
    const log = page.getByRole("region", { name: "Event log" });
    await expect(log.getByTestId("event-log-row").first()).toBeVisible();
    await log.getByLabel("Type").selectOption("refund.created");
    await log.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/type=refund.created/);
    await expect(log.getByTestId("event-log-row")).toHaveCount(1);
    await log.getByRole("link", { name: "Clear" }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(log.getByLabel("Type")).toHaveValue("");
    await log.getByLabel("Endpoint").selectOption({ label: "Refunds" });
    await log.getByLabel("Invoice id").fill(invoiceId);
    await log.getByLabel("State").selectOption({ label: "Delivered" });
    await log.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/state=delivered/);
    // A delivery is recorded just after the receiver answers: look again until both refund events show delivered.
    await expect(async () => {
      await page.reload();
      await expect(log.getByTestId("event-log-row")).toHaveCount(2, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(log.getByRole("link", { name: "invoice.status_changed" })).toHaveCount(0);
    await expectNoSeriousViolations(page);
    if (screenshotsDir()) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 1000 });
        await screenshot(page, `webhooks-filtered-${width}`, { fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 1000 });
    }

    // Open an event: its body and its delivery to each endpoint; Resend to one endpoint delivers the same event id again.
    await page.goto(`/webhooks?invoice=${invoiceId}&type=invoice.status_changed`);
    await log.getByRole("row").filter({ hasText: processed.eventId }).getByRole("link", { name: "invoice.status_changed" }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/events/${processed.eventId}$`));
    await expect(page.getByLabel("Event body")).toContainText(`"event_id": "${processed.eventId}"`);
    await expect(page.getByLabel("Event body")).toContainText(`"sequence": ${processed.body.meta.sequence}`);
    await expect(page.getByRole("region", { name: "Delivery to Refunds" })).toHaveCount(0);
    const delivery = page.getByRole("region", { name: "Delivery to Orders" });
    await expect(delivery.getByTestId("delivery-state")).toHaveText("Delivered");
    const before = orders.state.verified.size;
    await delivery.getByRole("button", { name: `Resend event ${processed.eventId} to Orders` }).click();
    await expect(delivery.getByRole("button", { name: /Resend/ })).toBeDisabled();
    await expect(delivery.getByTestId("webhook-answer")).toContainText("Resend: delivered — HTTP 200");
    expect(orders.state.arrivals.filter((id) => id === processed.eventId)).toHaveLength(2);
    expect(orders.state.verified.size).toBe(before);
    await expect(delivery.getByRole("table", { name: `Tries of event ${processed.eventId} to Orders` }).getByRole("row")).toHaveCount(3);
    await expectNoSeriousViolations(page);
    if (screenshotsDir()) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 1000 });
        await screenshot(page, `webhook-event-${width}`, { fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 1000 });
    }

    // Edit and delete: a disabled endpoint says so; a deleted one is gone from the list.
    await page.goto("/webhooks");
    await refundsCard.getByRole("button", { name: "Edit" }).click();
    const edit = refundsCard.getByRole("form", { name: `Edit endpoint ${refunds.url}` });
    await edit.getByRole("checkbox", { name: /^Enabled/ }).uncheck();
    if (screenshotsDir()) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 1000 });
        await screenshot(page.getByRole("region", { name: "Endpoints" }), `webhook-endpoint-edit-${width}`);
      }
      await page.setViewportSize({ width: 1280, height: 1000 });
    }
    await edit.getByRole("button", { name: "Save endpoint" }).click();
    await expect(refundsCard.getByTestId("endpoint-enabled")).toHaveText("Disabled");
    await expectNoSideways(page);
    page.once("dialog", (dialog) => void dialog.accept());
    await refundsCard.getByRole("button", { name: "Delete" }).click();
    await expect(endpoints.getByTestId("webhook-endpoint")).toHaveCount(1);
  } finally {
    await orders.close();
    await refunds.close();
  }
});

// Any signed-in owner will do: the worker's shared merchant (e2e/support/fixtures.ts).
/** The e2e server: production, with the operator's allowance for private receivers (playwright.config.ts). */
const URL_RULES =
  "This server accepts https:// URLs, private and loopback addresses included (WEBHOOKS_ALLOW_PRIVATE_URLS=1); plain http:// only to a loopback address written as such, such as http://127.0.0.1:4000/webhooks.";

sharedTest("the Webhooks page and the docs page say which endpoint URLs this server accepts, in its environment and in each", async ({ page }) => {
  await page.goto("/webhooks");
  await expect(page.locator("#new-endpoint-url-help")).toContainText(URL_RULES);
  await page.getByRole("link", { name: /Webhooks docs/ }).click();
  await expect(page.getByTestId("webhook-url-rules")).toHaveText(URL_RULES);
  const table = page.getByRole("table", { name: "Endpoint URLs each environment accepts" });
  await expect(table.getByRole("row", { name: /^Production/ })).toContainText("https:// on the public internet");
  await expect(table.getByRole("row", { name: /^Anywhere else/ })).toContainText("http:// and https://, private and loopback addresses included");
  await expectNoSeriousViolations(page);
  await screenshot(page.getByRole("region", { name: "Which endpoint URLs are accepted" }), "docs-webhooks-urls");
});

sharedTest("the docs page shows the payload, the headers, ordering by sequence and the verification function the receivers here use", async ({ page }) => {
  await page.goto("/webhooks");
  await page.getByRole("link", { name: /Webhooks docs/ }).click();
  await expect(page).toHaveURL(/\/docs\/webhooks$/);
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  const verify = page.getByLabel("verifyWebhook in TypeScript");
  await expect(verify).toContainText("export function verifyWebhook(rawBody: string, header: string, secret: string");
  await expect(verify).toContainText('createHmac("sha256", secret)');
  await expect(page.getByLabel("Example payload")).toContainText('"event_type": "invoice.status_changed"');
  await expect(page.getByLabel("Example payload")).toContainText('"sequence": 2');
  await expect(page.getByText("ignore an event whose sequence is not higher")).toBeVisible();
  await expect(page.getByTestId("docs-ordering-promise")).toContainText(
    "an event is not sent to an endpoint until the one before it (of the same invoice, to the same endpoint) was delivered or given up",
  );
  await expect(page.getByText("X-Signature", { exact: true })).toBeVisible();
  await expect(page.getByText(/retried after 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, then every 2 h/)).toBeVisible();
  await expectNoSeriousViolations(page);
  if (screenshotsDir()) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, "docs-webhooks", { fullPage: true });
  }
});

sharedTest("an event log cursor whose time is past 9999 is named on the page, not an error", async ({ page }) => {
  await page.goto("/webhooks?after=999999999999999.evt_x");
  await expect(page.getByRole("heading", { level: 2, name: "Event log" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Ignored:" })).toHaveText("Ignored: after (not a value this log knows).");
});

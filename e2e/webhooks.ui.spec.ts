import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { verifyWebhook } from "../lib/webhooks/verify-example";
import { createApiKey, signUp } from "./support/accounts";
import { expectNoSeriousViolations } from "./support/axe";
import { sharedTest } from "./support/fixtures";

/**
 * Against the built app (NODE_ENV=production, the
 * operator allowing loopback receivers): the owner sets the callback URL of a receiver this test
 * runs, sees the signing secret once, sends a test event and sees the answer; then a payment on
 * the hosted page is delivered by the app's job workers and the receiver verifies it with the
 * function the docs page shows.
 */
const JSON_API = { "Content-Type": "application/vnd.api+json" };
const SCREENSHOTS = process.env.WEBHOOK_SCREENSHOTS_DIR;

type Received = { raw: string; signature: string; eventId: string; body: { data: { id: string; attributes: { status: string } }; meta: { event_id: string; event_type: string } } };

function startReceiver() {
  const state = { secret: "", verified: new Map<string, Received>(), rejected: 0, arrivals: [] as string[] };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const signature = String(request.headers["x-signature"] ?? "");
      if (!state.secret || !verifyWebhook(raw, signature, state.secret)) {
        state.rejected += 1;
        response.writeHead(401).end("signature did not verify");
        return;
      }
      const body = JSON.parse(raw) as Received["body"];
      state.arrivals.push(body.meta.event_id);
      // Deduped by event id, as REFERENCE asks of receivers.
      state.verified.set(body.meta.event_id, { raw, signature, eventId: String(request.headers["x-event-id"]), body });
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, received: body.meta.event_id }));
    });
  });
  return new Promise<{ url: string; state: typeof state; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        state,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
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

test("owner sets the callback URL, sees the secret once, sends a test event, and a payment's status changes arrive signed", async ({ page }) => {
  const receiver = await startReceiver();
  try {
    const account = await signUp(page);
    const apiKey = await createApiKey(page);

    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Webhooks" });
    await expect(section.getByTestId("webhook-secret-status")).toContainText("None yet");
    await expect(section.getByRole("button", { name: "Send test event" })).toBeDisabled();

    // The server's check (production: https only) lands on the field.
    await section.getByLabel("Callback URL").fill("http://shop.example.com/hooks");
    await section.getByRole("button", { name: "Save callback URL" }).click();
    await expect(section.getByText("Callback URL must use https:// (plain http is refused in production).")).toBeVisible();
    await expect(section.getByLabel("Callback URL")).toHaveAttribute("aria-invalid", "true");

    await section.getByLabel("Callback URL").fill(receiver.url);
    await section.getByRole("button", { name: "Save callback URL" }).click();
    const shown = section.getByTestId("new-webhook-secret");
    await expect(shown).toHaveText(/^whsec_[A-Za-z0-9_-]{43}$/);
    const secret = (await shown.textContent())!.trim();
    receiver.state.secret = secret;
    await expect(section.getByRole("status").filter({ hasText: "Saved: status changes" })).toBeVisible();
    await expect(section.getByTestId("webhook-secret-status")).toContainText("Made");
    if (SCREENSHOTS) await section.screenshot({ path: `${SCREENSHOTS}/settings-webhooks-secret.png` });

    await section.getByRole("button", { name: "Send test event" }).click();
    const answer = section.getByTestId("webhook-answer");
    await expect(answer).toContainText("Test event: delivered — HTTP 200");
    await expect(answer).toContainText('"ok":true');
    const testEvent = [...receiver.state.verified.values()].find((entry) => entry.body.meta.event_type === "webhook.test");
    expect(testEvent?.eventId).toBe(testEvent?.body.meta.event_id);
    await expectNoSeriousViolations(page);
    if (SCREENSHOTS) {
      await page.setViewportSize({ width: 1280, height: 1000 });
      await section.screenshot({ path: `${SCREENSHOTS}/settings-webhooks.png` });
    }

    // Shown once: a reload shows when it was made, never the secret.
    await page.reload();
    await expect(page.getByRole("region", { name: "Webhooks" }).getByTestId("webhook-secret-status")).toContainText("Made");
    await expect(page.getByTestId("new-webhook-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    await expect(page.getByRole("region", { name: "Webhooks" }).getByLabel("Callback URL")).toHaveValue(receiver.url);

    // Rotation: a new secret shown once; the receiver still knows only the old one and still verifies (two v1 values for 24 hours).
    const webhooks = page.getByRole("region", { name: "Webhooks" });
    page.once("dialog", (dialog) => void dialog.accept());
    await webhooks.getByRole("button", { name: "Rotate secret" }).click();
    await expect(webhooks.getByTestId("new-webhook-secret")).toHaveText(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect((await webhooks.getByTestId("new-webhook-secret").textContent())?.trim()).not.toBe(secret);
    await expect(webhooks.getByText(/A previous secret still signs until/)).toBeVisible();
    await webhooks.getByRole("button", { name: "Send test event" }).click();
    await expect(webhooks.getByTestId("webhook-answer")).toContainText("Test event: delivered — HTTP 200");
    const rotatedTest = [...receiver.state.verified.values()].at(-1)!;
    expect(rotatedTest.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);

    // A payment on the hosted page: processing, then processed, delivered by the app's workers.
    const invoiceId = await hostedInvoice(page, apiKey, account.commerceAccount);
    await page.goto(`/pay/${invoiceId}`);
    await page.getByRole("button", { name: /4242 4242 4242 4242/ }).click();
    await page.getByLabel("Cardholder name").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await expect(page.getByTestId("pay-result")).toContainText("Payment received");
    await expect
      .poll(() => [...receiver.state.verified.values()].filter((entry) => entry.body.data.id === invoiceId).map((entry) => entry.body.data.attributes.status).sort(), {
        timeout: 20_000,
      })
      .toEqual(["processed", "processing"]);
    const processed = [...receiver.state.verified.values()].find((entry) => entry.body.data.id === invoiceId && entry.body.data.attributes.status === "processed")!;
    expect(processed.body.meta.event_type).toBe("invoice.status_changed");
    expect(processed.signature).toMatch(/^t=\d+(,v1=[0-9a-f]{64}){2}$/);
    expect(receiver.state.rejected).toBe(0);

    // The invoice page lists the events with their tries; Resend delivers the same event id again.
    const eventId = processed.body.meta.event_id;
    const known = receiver.state.verified.size;
    await page.goto(`/invoices/${invoiceId}`);
    await page.getByRole("button", { name: `Resend event ${eventId}` }).click();
    await expect(page.getByTestId("webhook-answer")).toContainText("Resend: delivered — HTTP 200");
    expect(receiver.state.arrivals.filter((id) => id === eventId)).toHaveLength(2);
    expect(receiver.state.verified.size).toBe(known);
    await expect(page.getByRole("table", { name: `Tries of event ${eventId}` }).getByRole("row")).toHaveCount(3);
  } finally {
    await receiver.close();
  }
});

// Any signed-in owner will do: the worker's shared merchant (e2e/support/fixtures.ts).
/** The e2e server: production, with the operator's allowance for private receivers (playwright.config.ts). */
const URL_RULES =
  "This server accepts https:// URLs, private and loopback addresses included (WEBHOOKS_ALLOW_PRIVATE_URLS=1); plain http:// only to a loopback address written as such, such as http://127.0.0.1:4000/webhooks.";

sharedTest("Settings and the docs page say which callback URLs this server accepts, in its environment and in each", async ({ page }) => {
  await page.goto("/settings");
  await expect(page.locator("#webhook-url-help")).toContainText(URL_RULES);
  await page.getByRole("link", { name: /Webhooks docs/ }).click();
  await expect(page.getByTestId("webhook-url-rules")).toHaveText(URL_RULES);
  const table = page.getByRole("table", { name: "Callback URLs each environment accepts" });
  await expect(table.getByRole("row", { name: /^Production/ })).toContainText("https:// on the public internet");
  await expect(table.getByRole("row", { name: /^Anywhere else/ })).toContainText("http:// and https://, private and loopback addresses included");
  await expectNoSeriousViolations(page);
  if (SCREENSHOTS) await page.getByRole("region", { name: "Which callback URLs are accepted" }).screenshot({ path: `${SCREENSHOTS}/docs-webhooks-urls.png` });
});

sharedTest("the docs page shows the payload, the headers and the verification function the receivers here use", async ({ page }) => {
  await page.goto("/settings");
  await page.getByRole("link", { name: /Webhooks docs/ }).click();
  await expect(page).toHaveURL(/\/docs\/webhooks$/);
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  const verify = page.getByLabel("verifyWebhook in TypeScript");
  await expect(verify).toContainText("export function verifyWebhook(rawBody: string, header: string, secret: string");
  await expect(verify).toContainText('createHmac("sha256", secret)');
  await expect(page.getByLabel("Example payload")).toContainText('"event_type": "invoice.status_changed"');
  await expect(page.getByText("X-Signature", { exact: true })).toBeVisible();
  await expect(page.getByText(/retried after 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, then every 2 h/)).toBeVisible();
  await expectNoSeriousViolations(page);
  if (SCREENSHOTS) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/docs-webhooks.png`, fullPage: true });
  }
});

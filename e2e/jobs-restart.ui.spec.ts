import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { sampleCredentials } from "../lib/providers/server/sample-credentials";
import { verifyWebhook } from "../lib/webhooks/verify-example";
import { createApiKey, signUp } from "./support/accounts";
import { killAppServer, startAppServer, type AppServer } from "./support/app-server";
import { addWebhookEndpoint } from "./support/webhooks";

/**
 * Jobs live in the database, so a job queued before a SIGKILL runs after the restart.
 * The app is killed while a webhook delivery waits for its retry (the receiver failed the first
 * try); after the restart on the same data directory the retry arrives, signed, with the same event.
 */
type Delivery = { eventId: string; status: string; verified: boolean; answered: number };

function startReceiver(secret: () => string) {
  const deliveries: Delivery[] = [];
  let answer = 500;
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const body = JSON.parse(raw) as { data: { attributes: { status: string } }; meta: { event_id: string } };
      deliveries.push({
        eventId: body.meta.event_id,
        status: body.data.attributes.status,
        verified: verifyWebhook(raw, String(req.headers["x-signature"] ?? ""), secret()),
        answered: answer,
      });
      res.writeHead(answer, { "content-type": "text/plain" }).end(answer === 200 ? "ok" : "receiver down");
    });
  });
  return {
    deliveries,
    answerWith: (status: number) => (answer = status),
    listen: () =>
      new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("a webhook retry queued before the app is killed is delivered after the restart", async ({ browser }) => {
  test.setTimeout(240_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "po-restart-"));
  let secret = "";
  const receiver = startReceiver(() => secret);
  const receiverUrl = await receiver.listen();
  let app: AppServer | undefined = await startAppServer(dataDir, undefined, { WEBHOOKS_ALLOW_PRIVATE_URLS: "1" });
  try {
    const context = await browser.newContext({ baseURL: app.url });
    const page = await context.newPage();
    const account = await signUp(page);
    const apiKey = await createApiKey(page);
    secret = await addWebhookEndpoint(page, receiverUrl);
    expect(secret).toMatch(/^whsec_/);

    const headers = { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/vnd.api+json" };
    const connection = await page.request.post("/api/connections", {
      headers,
      data: {
        data: {
          type: "connection",
          attributes: {
            provider: "provider-a",
            kind: "h2h",
            label: `A ${randomBytes(3).toString("hex")}`,
            mode: "test",
            credentials: sampleCredentials("provider-a", "h2h", "test"),
          },
        },
      },
    });
    expect(connection.status(), await connection.text()).toBe(201);
    const created = await page.request.post("/api/commerce/payout-invoices", {
      headers,
      data: {
        data: {
          type: "payout-invoice",
          attributes: {
            commerce_account: account.commerceAccount,
            reference_id: `restart-${randomBytes(6).toString("hex")}`,
            service: "payment_card_uah",
            currency: "UAH",
            amount: "120.00",
            test_mode: true,
            fields: { card_number: "4242424242424242" },
            options: { auto_process: true },
          },
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    expect((await created.json()).data.attributes.status).toBe("processed");
    await context.close();

    // created → processing → processed: two events. The first is tried and refused by the receiver;
    // the second waits behind it, as an endpoint gets one invoice's events in sequence order.
    await expect.poll(() => receiver.deliveries.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const refused = [...new Set(receiver.deliveries.map((d) => d.eventId))];
    expect(refused).toHaveLength(1);
    expect(receiver.deliveries.every((d) => d.answered === 500 && d.verified)).toBe(true);

    await killAppServer(app);
    app = undefined;
    receiver.answerWith(200);
    const afterKill = receiver.deliveries.length;
    app = await startAppServer(dataDir, undefined, { WEBHOOKS_ALLOW_PRIVATE_URLS: "1" });

    // After the restart the refused event's retry is delivered, then the one that waited behind it.
    const delivered = () => [
      ...new Set(
        receiver.deliveries
          .slice(afterKill)
          .filter((d) => d.answered === 200)
          .map((d) => d.eventId),
      ),
    ];
    await expect.poll(() => delivered().length, { timeout: 90_000 }).toBe(2);
    expect(delivered()[0]).toBe(refused[0]);
    const retried = receiver.deliveries.slice(afterKill);
    expect(retried.every((d) => d.verified)).toBe(true);
    expect(retried.at(-1)?.status).toBe("processed");
  } finally {
    if (app) await killAppServer(app);
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

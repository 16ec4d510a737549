import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page } from "@playwright/test";
import { verifyWebhook } from "../../lib/webhooks/verify-example";

/**
 * The owner adds a webhook endpoint on the Webhooks page (all events unless `eventTypes` names
 * some) and reads its signing secret, shown this once. Returns the secret.
 */
export async function addWebhookEndpoint(page: Page, url: string, options: { description?: string; eventTypes?: string[] } = {}): Promise<string> {
  if (!/\/webhooks$/.test(new URL(page.url()).pathname)) await page.goto("/webhooks");
  const section = page.getByRole("region", { name: "Endpoints" });
  const form = section.getByRole("form", { name: "Add endpoint" });
  // "Add endpoint" is a disclosure, open while there is no endpoint yet.
  const details = section.locator("details").filter({ has: page.locator("summary", { hasText: "Add endpoint" }) });
  if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open))) await details.locator("summary").click();
  await expect(form).toBeVisible();
  await form.getByLabel("Endpoint URL").fill(url);
  if (options.description) await form.getByLabel("Description").fill(options.description);
  if (options.eventTypes) {
    await form.getByRole("checkbox", { name: /^All events/ }).uncheck();
    for (const type of options.eventTypes) await form.getByRole("checkbox", { name: new RegExp(`^${type.replace(/\./g, "\\.")} `) }).check();
  }
  await form.getByRole("button", { name: "Add endpoint" }).click();
  const shown = section.getByTestId("new-webhook-secret");
  await expect(shown).toHaveText(/^whsec_[A-Za-z0-9_-]{43}$/);
  const secret = (await shown.textContent())!.trim();
  await section.getByRole("button", { name: "Done" }).click();
  await expect(shown).toHaveCount(0);
  return secret;
}

export type Received = {
  raw: string;
  signature: string;
  eventId: string;
  body: { data: { id: string; attributes: { status: string } }; meta: { event_id: string; event_type: string; sequence?: number } };
};

/**
 * A webhook receiver on 127.0.0.1 (the e2e server allows loopback endpoints): it keeps each event
 * whose signature verifies with `state.secret`, deduped by event id as REFERENCE asks of receivers,
 * in `verified`, their ids in order of arrival in `arrivals`, and answers 401 to the rest (`rejected`).
 */
export function startWebhookReceiver() {
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

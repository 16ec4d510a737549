import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { GET as getPaymentInvoice } from "@/app/api/commerce/payment-invoices/[id]/route";
import { resendWebhookEventAction, rotateWebhookSecretAction, saveWebhookUrlAction, sendTestWebhookAction } from "@/lib/actions/webhooks";
import { credentialsKey } from "@/lib/connections/vault-key";
import { merchants, webhookDeliveries, webhookEvents, webhookSecrets } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { changeInvoiceStatus } from "@/lib/invoices/status";
import { PAYMENT_EXAMPLES } from "@/lib/invoices/test-fixtures";
import { logger } from "@/lib/logger";
import { payHostedInvoice } from "@/lib/pay/pay-hosted-invoice";
import { listInvoiceEvents } from "@/lib/webhooks/read";
import { getWebhookSettings } from "@/lib/webhooks/settings";
import { verifyWebhook } from "@/lib/webhooks/verify-example";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { clearQueuedJobs, listScheduledJobs, makeJobsDue, runJobs } from "./helpers/jobs";
import { startSandboxServer } from "./helpers/sandbox-server";

/**
 * Through the real entry points: Settings' actions, status changes
 * by the hosted page's Pay (engine, Provider B's sandbox over HTTP), the "webhook-deliver" jobs,
 * and a real receiver on 127.0.0.1 that verifies every delivery with the documented function
 * (lib/webhooks/verify-example.ts, the source the docs page shows) and dedupes by event id.
 */
const t = setUpTestDb();

type Delivery = { headers: IncomingHttpHeaders; raw: string; body: { data: Record<string, unknown> & { attributes: Record<string, unknown> }; meta: Record<string, unknown> } };

/** A merchant's receiver: knows some secrets, answers each request with the next queued status (default 200). */
async function startReceiver() {
  const state = {
    secrets: [] as string[],
    answers: [] as number[],
    /** Every request, verified or not. */
    requests: [] as Delivery[],
    /** Verified events by id: what the merchant's system acted on once each. */
    processed: new Map<string, Delivery>(),
    duplicates: 0,
    rejected: 0,
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const delivery: Delivery = { headers: request.headers, raw, body: JSON.parse(raw) };
      state.requests.push(delivery);
      const status = state.answers.shift() ?? 200;
      if (status !== 200) {
        response.writeHead(status, { "content-type": "text/plain" }).end(`receiver failed with ${status}`);
        return;
      }
      const header = String(request.headers["x-signature"] ?? "");
      if (!state.secrets.some((secret) => verifyWebhook(raw, header, secret))) {
        state.rejected += 1;
        response.writeHead(401).end("bad signature");
        return;
      }
      const eventId = String(delivery.body.meta.event_id);
      if (state.processed.has(eventId)) state.duplicates += 1;
      else state.processed.set(eventId, delivery);
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ received: eventId }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const previousAppUrl = process.env.APP_URL;
const logged: unknown[] = [];
beforeAll(async () => {
  sandbox = await startSandboxServer();
  receiver = await startReceiver();
  process.env.APP_URL = sandbox.baseUrl;
});
afterAll(async () => {
  if (previousAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = previousAppUrl;
  await sandbox.close();
  await receiver.close();
});
beforeEach(async () => {
  session.userId = undefined;
  // Each test starts with no queued delivery: a retry an earlier test left scheduled (10 s after a
  // 500) would otherwise become due during a slow run and reach this test's receiver.
  await clearQueuedJobs(t.db, "webhook-deliver");
  Object.assign(receiver.state, { secrets: [], answers: [], requests: [], processed: new Map(), duplicates: 0, rejected: 0 });
  for (const level of ["info", "warn", "error"] as const) vi.spyOn(logger, level).mockImplementation((...args: unknown[]) => void logged.push(args));
});
afterEach(() => vi.restoreAllMocks());

/** A merchant with Provider B, its callback URL saved by the owner; returns the secret shown once. */
async function subscribedMerchant(): Promise<TeamMerchant & { secret: string }> {
  const m = await teamMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
  session.userId = m.ownerId;
  const saved = await saveWebhookUrlAction({ url: receiver.url });
  if (!saved.ok || !saved.data.secret) throw new Error(`setup: ${JSON.stringify(saved)}`);
  receiver.state.secrets = [saved.data.secret];
  return { ...m, secret: saved.data.secret };
}

async function bInvoice(m: TeamMerchant): Promise<string> {
  const created = await createInvoice(t.db, m.merchant, "payment", bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }));
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice.id;
}

async function payWith4242(id: string) {
  const outcome = await payHostedInvoice(t.db, id, { number: "4242424242424242", expiry: "12/30", cvc: "123", holder: "Ada Lovelace" });
  if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome)}`);
}

const deliver = () => runJobs(t.db, ["webhook-deliver"]);

async function eventRow(id: string) {
  const [row] = await t.db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return row!;
}

describe("Settings: callback URL and signing secret", () => {
  it("the first save shows a whsec_ secret once; later saves, the settings read and support members never see it", async () => {
    const m = await teamMerchant(t.db);
    session.userId = m.supportId;
    expect(await saveWebhookUrlAction({ url: receiver.url })).toMatchObject({ ok: false, message: "Only an owner may do this." });

    session.userId = m.ownerId;
    const first = await saveWebhookUrlAction({ url: receiver.url });
    expect(first).toMatchObject({ ok: true, data: { url: receiver.url, secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/) } });
    const secret = (first as { data: { secret: string } }).data.secret;
    expect(await saveWebhookUrlAction({ url: `${receiver.url}?v=2` })).toEqual({ ok: true, data: { url: `${receiver.url}?v=2`, secret: null } });

    const settings = await getWebhookSettings(t.db, m.merchantId);
    expect(settings).toMatchObject({ url: `${receiver.url}?v=2`, secretCreatedAt: expect.any(String), retiringSecrets: [] });
    expect(JSON.stringify(settings)).not.toContain(secret);
    const [stored] = await t.db.select().from(webhookSecrets).where(eq(webhookSecrets.merchantId, m.merchantId));
    expect(stored!.sealed).not.toContain(secret.slice(6));

    expect(await saveWebhookUrlAction({ url: "ftp://example.com/x" })).toMatchObject({ ok: false, fieldErrors: { url: expect.stringContaining("Callback URL") } });
    expect(await saveWebhookUrlAction({ url: "" })).toEqual({ ok: true, data: { url: null, secret: null } });
    expect((await getWebhookSettings(t.db, m.merchantId)).url).toBeNull();
  });

  it("Send test event delivers a signed webhook.test sample now and answers with the receiver's status, time and answer", async () => {
    const m = await subscribedMerchant();
    const answer = await sendTestWebhookAction({});
    expect(answer).toMatchObject({ ok: true, data: { succeeded: true, statusCode: 200, durationMs: expect.any(Number), error: null } });
    const { eventId, excerpt } = (answer as { data: { eventId: string; excerpt: string } }).data;
    expect(JSON.parse(excerpt)).toEqual({ received: eventId });
    const got = receiver.state.processed.get(eventId)!;
    expect(got.body.meta).toEqual({ event_id: eventId, event_type: "webhook.test", sample: true });
    expect(got.body.data).toMatchObject({ id: "cpi_sample_webhook_test_event", type: "payment-invoice", attributes: { reference_id: "sample-webhook-test", status: "processed" } });

    receiver.state.answers.push(503);
    expect(await sendTestWebhookAction({})).toMatchObject({ ok: true, data: { succeeded: false, statusCode: 503, excerpt: "receiver failed with 503" } });
    session.userId = m.supportId;
    expect(await sendTestWebhookAction({})).toMatchObject({ ok: false, message: "Only an owner may do this." });
  });
});

describe("delivery of invoice.status_changed", () => {
  it("a hosted-page payment delivers each status change, signed, as the API's GET document plus meta; the receiver verifies them", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    await payWith4242(id);
    expect(await deliver()).toBeGreaterThanOrEqual(2);

    const events = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(events.map((event) => [event.invoiceStatus, event.state])).toEqual([
      ["processed", "delivered"],
      ["processing", "delivered"],
    ]);
    expect(receiver.state.rejected).toBe(0);
    expect([...receiver.state.processed.keys()].sort()).toEqual(events.map((event) => event.id).sort());

    const last = receiver.state.processed.get(events[0]!.id)!;
    expect(last.headers["content-type"]).toBe("application/json");
    expect(last.headers["x-event-id"]).toBe(events[0]!.id);
    expect(last.headers["user-agent"]).toMatch(/Webhooks/);
    expect(String(last.headers["x-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(last.body.meta).toEqual({ event_id: events[0]!.id, event_type: "invoice.status_changed" });
    // The same document the API answers for the invoice (links on APP_URL), with the connection relationship.
    const api = await getPaymentInvoice(new Request(`${process.env.APP_URL}/api/commerce/payment-invoices/${id}`, { headers: { authorization: `Bearer ${m.key}` } }), {
      params: Promise.resolve({ id }),
    });
    expect(last.body.data).toEqual((await api.json()).data);
    expect(last.body.data).toMatchObject({ relationships: { connection: { data: { type: "connection" } } } });

    // A receiver with another secret, or a body changed in transit, does not verify.
    expect(verifyWebhook(last.raw, String(last.headers["x-signature"]), "whsec_someone-else")).toBe(false);
    expect(verifyWebhook(last.raw.replace("processed", "refunded"), String(last.headers["x-signature"]), m.secret)).toBe(false);
    // Older than five minutes: refused by the documented function.
    expect(verifyWebhook(last.raw, String(last.headers["x-signature"]), m.secret, Date.now() / 1000 + 301)).toBe(false);

    const tries = events[0]!.deliveries;
    expect(tries).toEqual([expect.objectContaining({ trigger: "automatic", statusCode: 200, succeeded: true, error: null, responseExcerpt: JSON.stringify({ received: events[0]!.id }) })]);
  });

  it("a 500 from the receiver is logged and retried with backoff; the next try delivers; running the job again sends nothing", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    receiver.state.answers.push(500);
    const moved = await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired", undefined, { reason: "test" });
    expect(moved.status).toBe("expired");
    expect(await deliver()).toBe(1);

    let [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(event).toMatchObject({ state: "pending", tries: 1, deliveries: [{ trigger: "automatic", statusCode: 500, succeeded: false, responseExcerpt: "receiver failed with 500" }] });
    const waitSeconds = (Date.parse(event!.nextTryAt!) - Date.now()) / 1000;
    expect(waitSeconds).toBeGreaterThan(5);
    expect(waitSeconds).toBeLessThanOrEqual(10);
    expect((await listScheduledJobs(t.db, id)).filter((job) => job.name === "webhook-deliver")).toMatchObject([{ data: { eventId: event!.id, tryNo: 2 } }]);
    expect(await deliver()).toBe(0);
    expect(receiver.state.processed.size).toBe(0);

    expect(await makeJobsDue(t.db, { invoiceId: id, name: "webhook-deliver" })).toBe(1);
    expect(await deliver()).toBe(1);
    [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(event).toMatchObject({ state: "delivered", tries: 2, nextTryAt: null });
    expect(event!.deliveries.map((entry) => entry.statusCode)).toEqual([500, 200]);
    expect(receiver.state.processed.has(event!.id)).toBe(true);

    // The same job once more (a worker that died before recording completion): nothing is sent.
    const { webhookDeliverTask } = await import("@/lib/webhooks/tasks/webhook-deliver");
    await webhookDeliverTask.handler(t.db, { eventId: event!.id, invoiceId: id, tryNo: 2 }, { id: "x", name: "webhook-deliver", retryCount: 0 });
    expect(receiver.state.requests).toHaveLength(2);
  });

  it("Resend delivers the same event id once more; the receiver dedupes it; only the owner of the merchant may resend", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    await deliver();
    const [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(receiver.state.processed.size).toBe(1);

    const resent = await resendWebhookEventAction({ eventId: event!.id });
    expect(resent).toMatchObject({ ok: true, data: { eventId: event!.id, succeeded: true, statusCode: 200 } });
    expect(receiver.state.requests.map((request) => request.body.meta.event_id)).toEqual([event!.id, event!.id]);
    expect(receiver.state.processed.size).toBe(1);
    expect(receiver.state.duplicates).toBe(1);
    const [after] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(after!.deliveries.map((entry) => entry.trigger)).toEqual(["automatic", "resend"]);

    session.userId = m.supportId;
    expect(await resendWebhookEventAction({ eventId: event!.id })).toMatchObject({ ok: false, message: "Only an owner may do this." });
    const other = await subscribedMerchant();
    session.userId = other.ownerId;
    expect(await resendWebhookEventAction({ eventId: event!.id })).toMatchObject({ ok: false, message: "This event does not exist." });
    expect(await listInvoiceEvents(t.db, other.merchantId, id)).toEqual([]);
    expect(receiver.state.requests).toHaveLength(2);
  });

  it("rotation: two v1 values for 24 hours, so a receiver that knows only the old secret still verifies; afterwards only the new one", async () => {
    const m = await subscribedMerchant();
    const rotated = await rotateWebhookSecretAction({});
    expect(rotated).toMatchObject({ ok: true, data: { secret: expect.stringMatching(/^whsec_/), previousRetiresAt: expect.any(String) } });
    const { secret: fresh, previousRetiresAt } = (rotated as { data: { secret: string; previousRetiresAt: string } }).data;
    expect(fresh).not.toBe(m.secret);
    expect(Date.parse(previousRetiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(JSON.stringify(await getWebhookSettings(t.db, m.merchantId))).not.toMatch(/whsec_/);

    const id = await bInvoice(m);
    receiver.state.secrets = [m.secret]; // has not switched yet
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    await deliver();
    const first = receiver.state.requests.at(-1)!;
    expect(String(first.headers["x-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(first.raw, String(first.headers["x-signature"]), m.secret)).toBe(true);
    expect(verifyWebhook(first.raw, String(first.headers["x-signature"]), fresh)).toBe(true);
    expect(receiver.state.processed.size).toBe(1);

    // 24 hours later the old secret has retired.
    await t.db
      .update(webhookSecrets)
      .set({ retiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(webhookSecrets.merchantId, m.merchantId), isNotNull(webhookSecrets.retiresAt)));
    const [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(await resendWebhookEventAction({ eventId: event!.id })).toMatchObject({ ok: true, data: { succeeded: false, statusCode: 401 } });
    const second = receiver.state.requests.at(-1)!;
    expect(String(second.headers["x-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(second.raw, String(second.headers["x-signature"]), m.secret)).toBe(false);
    expect(verifyWebhook(second.raw, String(second.headers["x-signature"]), fresh)).toBe(true);
    expect(await getWebhookSettings(t.db, m.merchantId)).toMatchObject({ retiringSecrets: [] });
  });

  it("no URL at send time: the event is no_endpoint and nothing is sent", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    expect(await saveWebhookUrlAction({ url: "" })).toMatchObject({ ok: true });
    await deliver();
    expect(await listInvoiceEvents(t.db, m.merchantId, id)).toMatchObject([{ state: "no_endpoint", deliveries: [] }]);
    expect(receiver.state.requests).toHaveLength(0);
  });

  it("after 24 hours of failures the event is failed and no further try is queued", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    receiver.state.answers.push(500);
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    const [created] = await listInvoiceEvents(t.db, m.merchantId, id);
    await t.db.update(webhookEvents).set({ createdAt: new Date(Date.now() - 24 * 3600_000 + 5_000) }).where(eq(webhookEvents.id, created!.id));
    await deliver();
    expect(await eventRow(created!.id)).toMatchObject({ deliveryState: "failed", tries: 1, nextTryAt: null });
    expect((await listScheduledJobs(t.db, id)).filter((job) => job.name === "webhook-deliver")).toEqual([]);
  });

  it("the sweep queues a due try that has no job (a crash after the change), and queuing it twice is harmless", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    await t.db.update(merchants).set({ webhookUrl: null }).where(eq(merchants.id, m.merchantId));
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired"); // no job: no URL then
    const [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    await t.db.update(merchants).set({ webhookUrl: receiver.url }).where(eq(merchants.id, m.merchantId));
    await t.db.update(webhookEvents).set({ deliveryState: "pending", nextTryAt: new Date(Date.now() - 1000) }).where(eq(webhookEvents.id, event!.id));
    const { webhookDueTriesSweep } = await import("@/lib/webhooks/tasks/webhook-deliver");
    expect(await webhookDueTriesSweep.run(t.db)).toBeGreaterThanOrEqual(1);
    expect(await webhookDueTriesSweep.run(t.db)).toBe(0);
    await deliver();
    expect(await eventRow(event!.id)).toMatchObject({ deliveryState: "delivered", tries: 1 });
    expect(receiver.state.processed.has(event!.id)).toBe(true);
  });

  it("no signing secret ever appears in a log line, a delivery or event row, or an action result after the first", async () => {
    logged.length = 0;
    const m = await subscribedMerchant();
    const rotated = await rotateWebhookSecretAction({});
    const fresh = (rotated as { data: { secret: string } }).data.secret;
    const id = await bInvoice(m);
    await payWith4242(id);
    await deliver();
    await sendTestWebhookAction({});
    const results = [await saveWebhookUrlAction({ url: receiver.url }), await sendTestWebhookAction({})];
    const events = await t.db.select().from(webhookEvents).where(eq(webhookEvents.merchantId, m.merchantId));
    const tries = await t.db.select().from(webhookDeliveries);
    const text = JSON.stringify({ logged, results, events, tries, settings: await getWebhookSettings(t.db, m.merchantId) });
    expect(tries.length).toBeGreaterThan(2);
    for (const secret of [m.secret, fresh]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(6));
    }
  });
});

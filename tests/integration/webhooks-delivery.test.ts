import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { GET as getPaymentInvoice } from "@/app/api/commerce/payment-invoices/[id]/route";
import {
  createWebhookEndpointAction,
  deleteWebhookEndpointAction,
  resendWebhookEventAction,
  rotateWebhookSecretAction,
  sendTestWebhookAction,
  updateWebhookEndpointAction,
} from "@/lib/actions/webhooks";
import { credentialsKey } from "@/lib/vault/vault-key";
import { invoices, webhookDeliveries, webhookEndpoints, webhookEvents, webhookEventTargets, webhookSecrets } from "@/lib/db/schema";
import { recordInvoiceEvent } from "@/lib/invoices/events";
import { createRefund } from "@/lib/refunds/create-refund";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { changeInvoiceStatus, queueEventDelivery } from "@/lib/invoices/status";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { payHostedInvoice } from "@/lib/pay/pay-hosted-invoice";
import { listEndpoints } from "@/lib/webhooks/endpoints";
import { WEBHOOK_EVENT_TYPES } from "@/lib/invoices/event-types";
import { getEventDetail, listEventLog, listInvoiceEvents } from "@/lib/webhooks/read";
import { verifyWebhook } from "@/lib/webhooks/verify-example";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { clearQueuedJobs, listScheduledJobs, makeJobsDue, runJobs } from "./helpers/jobs";
import { startSandboxServer } from "./helpers/sandbox-server";

/**
 * Through the real entry points: the Webhooks page's actions, status changes
 * by the hosted page's Pay (engine, Provider B's sandbox over HTTP), the "webhook-deliver" jobs,
 * and a real receiver on 127.0.0.1 that verifies every delivery with the documented function
 * (lib/webhooks/verify-example.ts, the source the docs page shows) and dedupes by event id.
 */
const t = setUpTestDb();

type Delivery = {
  headers: IncomingHttpHeaders;
  raw: string;
  body: { data: Record<string, unknown> & { attributes: Record<string, unknown> }; meta: Record<string, unknown> };
};

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
    /** How long it takes to answer, so that deliveries overlap; and how many overlapped at most. */
    delayMs: 0,
    inFlight: 0,
    maxInFlight: 0,
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    state.inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    response.on("finish", () => (state.inFlight -= 1));
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
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
/** A second receiver: another endpoint of the same merchant, with a secret of its own. */
let second: Awaited<ReturnType<typeof startReceiver>>;
const previousAppUrl = process.env.APP_URL;
const logged: unknown[] = [];
beforeAll(async () => {
  sandbox = await startSandboxServer();
  receiver = await startReceiver();
  second = await startReceiver();
  process.env.APP_URL = sandbox.baseUrl;
});
afterAll(async () => {
  if (previousAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = previousAppUrl;
  await sandbox.close();
  await receiver.close();
  await second.close();
});
beforeEach(async () => {
  session.userId = undefined;
  // Each test starts with no queued delivery: a retry an earlier test left scheduled (10 s after a
  // 500) would otherwise become due during a slow run and reach this test's receiver.
  await clearQueuedJobs(t.db, "webhook-deliver");
  for (const r of [receiver, second])
    Object.assign(r.state, {
      secrets: [],
      answers: [],
      requests: [],
      processed: new Map(),
      duplicates: 0,
      rejected: 0,
      delayMs: 0,
      inFlight: 0,
      maxInFlight: 0,
    });
  for (const level of ["info", "warn", "error"] as const) vi.spyOn(logger, level).mockImplementation((...args: unknown[]) => void logged.push(args));
});
afterEach(() => vi.restoreAllMocks());

const ALL = { description: "", enabled: true, allEvents: true, eventTypes: [] as (typeof WEBHOOK_EVENT_TYPES)[number][] };

/** The owner adds an endpoint for `target` through the page's action; returns its id and the secret shown once (the receiver learns it). */
async function addEndpoint(target: typeof receiver, fields: Partial<typeof ALL> = {}): Promise<{ id: string; secret: string }> {
  const added = await createWebhookEndpointAction({ url: target.url, ...ALL, ...fields });
  if (!added.ok) throw new Error(`setup: ${JSON.stringify(added)}`);
  target.state.secrets.push(added.data.secret);
  return { id: added.data.id, secret: added.data.secret };
}

/** A merchant with Provider B and one endpoint (all events) at `receiver`, added by the owner. */
async function subscribedMerchant(): Promise<TeamMerchant & { secret: string; endpointId: string }> {
  const m = await teamMerchant(t.db);
  await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
  session.userId = m.ownerId;
  const endpoint = await addEndpoint(receiver);
  return { ...m, secret: endpoint.secret, endpointId: endpoint.id };
}

async function bInvoice(m: TeamMerchant): Promise<string> {
  const created = await createInvoice(
    t.db,
    m.merchant,
    "payment",
    bodyFor(PAYMENT_EXAMPLES["B: EUR without customer"], m.account, { reference_id: newReference() }),
  );
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.invoice.id;
}

async function payWith4242(id: string) {
  const outcome = await payHostedInvoice(t.db, id, { number: "4242424242424242", expiry: "12/30", cvc: "123", holder: "Ada Lovelace" });
  if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome)}`);
}

const deliver = () => runJobs(t.db, ["webhook-deliver"]);

async function targetRow(eventId: string, endpointId: string) {
  const [row] = await t.db
    .select()
    .from(webhookEventTargets)
    .where(and(eq(webhookEventTargets.eventId, eventId), eq(webhookEventTargets.endpointId, endpointId)));
  return row!;
}

/** A refund of the paid invoice through the same function the API and the invoice page call. */
async function refund(m: TeamMerchant, invoiceId: string, amount = "10.00") {
  const created = await createRefund(t.db, {
    merchantId: m.merchantId,
    invoiceId,
    body: { data: { type: "refund", attributes: { reference_id: newReference(), amount } } },
    testOnly: false,
    createdBy: "test",
  });
  if (created.kind !== "created") throw new Error(`setup: refund ${JSON.stringify(created)}`);
}

const typesAt = (r: typeof receiver) => r.state.requests.map((request) => String(request.body.meta.event_type));

describe("Webhooks page: endpoints and their signing secrets", () => {
  it("adding an endpoint shows its whsec_ secret once; editing, the list and support members never see it; delete removes it", async () => {
    const m = await teamMerchant(t.db);
    session.userId = m.supportId;
    expect(await createWebhookEndpointAction({ url: receiver.url, ...ALL })).toMatchObject({
      ok: false,
      message: "Your role (Support) may not add and change webhook endpoints and resend events.",
    });

    session.userId = m.ownerId;
    const first = await createWebhookEndpointAction({ url: receiver.url, ...ALL, description: "Orders" });
    expect(first).toMatchObject({
      ok: true,
      data: { id: expect.stringMatching(/^whe_/), url: receiver.url, secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/) },
    });
    const { id, secret } = (first as { data: { id: string; secret: string } }).data;
    const edited = await updateWebhookEndpointAction({
      endpointId: id,
      url: `${receiver.url}?v=2`,
      description: "Orders v2",
      enabled: false,
      allEvents: false,
      eventTypes: ["refund.created"],
    });
    expect(edited).toEqual({ ok: true, data: { id, url: `${receiver.url}?v=2` } });

    const listed = await listEndpoints(t.db, m.merchantId);
    expect(listed).toMatchObject([
      {
        id,
        url: `${receiver.url}?v=2`,
        description: "Orders v2",
        enabled: false,
        eventTypes: ["refund.created"],
        secretCreatedAt: expect.any(String),
        retiringSecrets: [],
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    const [stored] = await t.db.select().from(webhookSecrets).where(eq(webhookSecrets.endpointId, id));
    expect(stored!.sealed).not.toContain(secret.slice(6));

    expect(await createWebhookEndpointAction({ url: "ftp://example.com/x", ...ALL })).toMatchObject({
      ok: false,
      fieldErrors: { url: expect.stringContaining("Endpoint URL") },
    });
    expect(await createWebhookEndpointAction({ url: receiver.url, ...ALL, allEvents: false })).toMatchObject({
      ok: false,
      fieldErrors: { eventTypes: "Choose at least one event type, or All events" },
    });
    expect(await createWebhookEndpointAction({ url: receiver.url, ...ALL, allEvents: false, eventTypes: ["invoice.paid" as never] })).toMatchObject({
      ok: false,
      fieldErrors: { "eventTypes.0": "Unknown event type" },
    });

    session.userId = m.supportId;
    expect(await deleteWebhookEndpointAction({ endpointId: id })).toMatchObject({
      ok: false,
      message: "Your role (Support) may not add and change webhook endpoints and resend events.",
    });
    session.userId = m.ownerId;
    expect(await deleteWebhookEndpointAction({ endpointId: id })).toEqual({ ok: true, data: { endpointId: id } });
    expect(await listEndpoints(t.db, m.merchantId)).toEqual([]);
    expect(await t.db.select().from(webhookSecrets).where(eq(webhookSecrets.merchantId, m.merchantId))).toEqual([]);
    expect(await deleteWebhookEndpointAction({ endpointId: id })).toMatchObject({ ok: false, message: "This endpoint does not exist." });
  });

  it("Send test event delivers a signed webhook.test sample to that endpoint now and answers with the receiver's status, time and answer", async () => {
    const m = await subscribedMerchant();
    const other = await addEndpoint(second, { enabled: false, allEvents: false, eventTypes: ["refund.failed"] });
    const answer = await sendTestWebhookAction({ endpointId: m.endpointId });
    expect(answer).toMatchObject({
      ok: true,
      data: { endpointId: m.endpointId, succeeded: true, statusCode: 200, durationMs: expect.any(Number), error: null },
    });
    const { eventId, excerpt } = (answer as { data: { eventId: string; excerpt: string } }).data;
    expect(JSON.parse(excerpt)).toEqual({ received: eventId });
    const got = receiver.state.processed.get(eventId)!;
    expect(got.body.meta).toEqual({ event_id: eventId, event_type: "webhook.test", sample: true });
    expect(got.body.data).toMatchObject({
      id: "cpi_sample_webhook_test_event",
      type: "payment-invoice",
      attributes: { reference_id: "sample-webhook-test", status: "processed" },
    });
    expect(second.state.requests).toHaveLength(0);

    // A test goes to the endpoint asked for, whatever it takes and even disabled, signed with its own secret.
    expect(await sendTestWebhookAction({ endpointId: other.id })).toMatchObject({ ok: true, data: { endpointId: other.id, succeeded: true } });
    expect(second.state.rejected).toBe(0);
    expect(receiver.state.requests).toHaveLength(1);

    receiver.state.answers.push(503);
    expect(await sendTestWebhookAction({ endpointId: m.endpointId })).toMatchObject({
      ok: true,
      data: { succeeded: false, statusCode: 503, excerpt: "receiver failed with 503" },
    });
    session.userId = m.supportId;
    expect(await sendTestWebhookAction({ endpointId: m.endpointId })).toMatchObject({
      ok: false,
      message: "Your role (Support) may not add and change webhook endpoints and resend events.",
    });
  });
});

describe("delivery of invoice.status_changed", () => {
  it("a hosted-page payment delivers each status change, signed, as the API's GET document plus meta with its sequence; the receiver verifies them", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    await payWith4242(id);
    expect(await deliver()).toBeGreaterThanOrEqual(2);

    const events = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(events.map((event) => [event.sequence, event.invoiceStatus, event.state])).toEqual([
      [2, "processed", "delivered"],
      [1, "processing", "delivered"],
    ]);
    expect(receiver.state.rejected).toBe(0);
    expect([...receiver.state.processed.keys()].sort()).toEqual(events.map((event) => event.id).sort());

    const last = receiver.state.processed.get(events[0]!.id)!;
    expect(last.headers["content-type"]).toBe("application/json");
    expect(last.headers["x-event-id"]).toBe(events[0]!.id);
    expect(last.headers["user-agent"]).toMatch(/Webhooks/);
    expect(String(last.headers["x-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(last.body.meta).toEqual({ event_id: events[0]!.id, event_type: "invoice.status_changed", sequence: 2 });
    // The same document the API answers for the invoice (links on APP_URL), with the connection relationship.
    const api = await getPaymentInvoice(
      new Request(`${process.env.APP_URL}/api/commerce/payment-invoices/${id}`, { headers: { authorization: `Bearer ${m.key}` } }),
      {
        params: Promise.resolve({ id }),
      },
    );
    expect(last.body.data).toEqual((await api.json()).data);
    expect(last.body.data).toMatchObject({ relationships: { connection: { data: { type: "connection" } } } });
    // The event page shows that body: the delivered document, byte for byte once parsed.
    expect(JSON.parse((await getEventDetail(t.db, m.merchantId, events[0]!.id))!.body)).toEqual(last.body);

    // A receiver with another secret, or a body changed in transit, does not verify.
    expect(verifyWebhook(last.raw, String(last.headers["x-signature"]), "whsec_someone-else")).toBe(false);
    expect(verifyWebhook(last.raw.replace("processed", "refunded"), String(last.headers["x-signature"]), m.secret)).toBe(false);
    // Older than five minutes: refused by the documented function.
    expect(verifyWebhook(last.raw, String(last.headers["x-signature"]), m.secret, Date.now() / 1000 + 301)).toBe(false);

    const tries = events[0]!.deliveries;
    expect(tries).toEqual([
      expect.objectContaining({
        endpointId: m.endpointId,
        url: receiver.url,
        trigger: "automatic",
        statusCode: 200,
        succeeded: true,
        error: null,
        responseExcerpt: JSON.stringify({ received: events[0]!.id }),
      }),
    ]);
  });

  it("fans out to every enabled endpoint that takes the type, each signed with its own secret; a refund-only endpoint gets refund events only", async () => {
    const m = await subscribedMerchant();
    const refundsOnly = await addEndpoint(second, {
      allEvents: false,
      eventTypes: ["refund.created", "refund.succeeded", "refund.failed"],
      description: "Refunds",
    });
    const disabled = await createWebhookEndpointAction({ url: `${second.url}?disabled`, ...ALL, enabled: false });
    expect(disabled.ok).toBe(true);
    const id = await bInvoice(m);
    await payWith4242(id);
    await refund(m, id);
    await runJobs(t.db);
    await deliver();

    expect(receiver.state.rejected + second.state.rejected).toBe(0);
    expect(typesAt(receiver)).toEqual(expect.arrayContaining(["invoice.status_changed", "refund.created"]));
    expect(typesAt(second).length).toBeGreaterThanOrEqual(1);
    expect(typesAt(second).every((type) => type.startsWith("refund."))).toBe(true);
    expect(second.state.requests.every((request) => !request.raw.includes("?disabled"))).toBe(true);
    // Each endpoint's delivery verifies with its own secret only.
    const refundCreated = second.state.requests.find((request) => request.body.meta.event_type === "refund.created")!;
    const sameAtFirst = receiver.state.requests.find((request) => request.body.meta.event_id === refundCreated.body.meta.event_id)!;
    expect(sameAtFirst.raw).toBe(refundCreated.raw);
    expect(verifyWebhook(refundCreated.raw, String(refundCreated.headers["x-signature"]), refundsOnly.secret)).toBe(true);
    expect(verifyWebhook(refundCreated.raw, String(refundCreated.headers["x-signature"]), m.secret)).toBe(false);
    expect(verifyWebhook(sameAtFirst.raw, String(sameAtFirst.headers["x-signature"]), m.secret)).toBe(true);
    expect(verifyWebhook(sameAtFirst.raw, String(sameAtFirst.headers["x-signature"]), refundsOnly.secret)).toBe(false);

    // The log: the refund event went to both endpoints; the status changes to the first only; the disabled one got none.
    const events = await listInvoiceEvents(t.db, m.merchantId, id);
    const created = events.find((event) => event.type === "refund.created")!;
    expect(created.targets.map((target) => target.endpointId).sort()).toEqual([m.endpointId, refundsOnly.id].sort());
    expect(
      events
        .filter((event) => event.type === "invoice.status_changed")
        .every((event) => event.targets.length === 1 && event.targets[0]!.endpointId === m.endpointId),
    ).toBe(true);
    const byEndpoint = await listEventLog(t.db, m.merchantId, { endpoint: refundsOnly.id });
    expect(byEndpoint.events.length).toBeGreaterThanOrEqual(1);
    expect(byEndpoint.events.every((event) => event.type.startsWith("refund."))).toBe(true);
  });

  it("an endpoint added later is never sent the events made before it, not even by Resend", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    const later = await addEndpoint(second);
    await deliver();
    expect(receiver.state.processed.size).toBe(1);
    expect(second.state.requests).toHaveLength(0);
    const [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(await resendWebhookEventAction({ eventId: event!.id, endpointId: later.id })).toMatchObject({
      ok: false,
      message: expect.stringContaining("never sent to that endpoint"),
    });
    expect(second.state.requests).toHaveLength(0);
  });

  it("each endpoint retries on its own: one answering 500 does not hold the other back, and later succeeds on its schedule", async () => {
    const m = await subscribedMerchant();
    const other = await addEndpoint(second);
    const id = await bInvoice(m);
    receiver.state.answers.push(500);
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    expect(await deliver()).toBe(2);
    let [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(event!.state).toBe("failing");
    expect(second.state.processed.has(event!.id)).toBe(true);
    expect(await targetRow(event!.id, other.id)).toMatchObject({ state: "delivered", tries: 1, nextTryAt: null });
    expect(await targetRow(event!.id, m.endpointId)).toMatchObject({ state: "pending", tries: 1 });
    expect((await listEventLog(t.db, m.merchantId, { state: "failing", invoice: id })).events.map((entry) => entry.id)).toEqual([event!.id]);
    expect((await listEventLog(t.db, m.merchantId, { state: "delivered", invoice: id })).events).toEqual([]);

    expect(await makeJobsDue(t.db, { invoiceId: id, name: "webhook-deliver" })).toBe(1);
    expect(await deliver()).toBe(1);
    [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(event!.state).toBe("delivered");
    expect(second.state.requests).toHaveLength(1);
    expect(event!.deliveries.map((entry) => [entry.endpointId === m.endpointId ? "first" : "second", entry.statusCode])).toEqual(
      expect.arrayContaining([
        ["first", 500],
        ["second", 200],
        ["first", 200],
      ]),
    );
  });

  it("a 500 from the receiver is logged and retried with backoff; the next try delivers; running the job again sends nothing", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    receiver.state.answers.push(500);
    const moved = await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired", undefined, { reason: "test" });
    expect(moved.status).toBe("expired");
    expect(await deliver()).toBe(1);

    let [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(event).toMatchObject({
      state: "failing",
      targets: [{ state: "pending", tries: 1 }],
      deliveries: [{ trigger: "automatic", statusCode: 500, succeeded: false, responseExcerpt: "receiver failed with 500" }],
    });
    const waitSeconds = (Date.parse(event!.targets[0]!.nextTryAt!) - Date.now()) / 1000;
    expect(waitSeconds).toBeGreaterThan(5);
    expect(waitSeconds).toBeLessThanOrEqual(10);
    expect((await listScheduledJobs(t.db, id)).filter((job) => job.name === "webhook-deliver")).toMatchObject([
      { data: { eventId: event!.id, endpointId: m.endpointId, tryNo: 2 } },
    ]);
    expect(await deliver()).toBe(0);
    expect(receiver.state.processed.size).toBe(0);

    expect(await makeJobsDue(t.db, { invoiceId: id, name: "webhook-deliver" })).toBe(1);
    expect(await deliver()).toBe(1);
    [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(event).toMatchObject({ state: "delivered", targets: [{ state: "delivered", tries: 2, nextTryAt: null }] });
    expect(event!.deliveries.map((entry) => entry.statusCode)).toEqual([500, 200]);
    expect(receiver.state.processed.has(event!.id)).toBe(true);

    // The same job once more (a worker that died before recording completion): nothing is sent.
    const { webhookDeliverTask } = await import("@/lib/webhooks/tasks/webhook-deliver");
    await webhookDeliverTask.handler(
      t.db,
      { eventId: event!.id, endpointId: m.endpointId, invoiceId: id, tryNo: 2 },
      { id: "x", name: "webhook-deliver", retryCount: 0 },
    );
    // A job queued before endpoints existed (no endpointId) finds the try already made too.
    await webhookDeliverTask.handler(t.db, { eventId: event!.id, invoiceId: id, tryNo: 2 }, { id: "y", name: "webhook-deliver", retryCount: 0 });
    expect(receiver.state.requests).toHaveLength(2);
  });

  it("Resend delivers the same event id once more to that endpoint; the receiver dedupes it; only the owner of the merchant may resend", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    await deliver();
    const [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(receiver.state.processed.size).toBe(1);

    const resent = await resendWebhookEventAction({ eventId: event!.id, endpointId: m.endpointId });
    expect(resent).toMatchObject({ ok: true, data: { eventId: event!.id, endpointId: m.endpointId, succeeded: true, statusCode: 200 } });
    expect(receiver.state.requests.map((request) => request.body.meta.event_id)).toEqual([event!.id, event!.id]);
    expect(receiver.state.processed.size).toBe(1);
    expect(receiver.state.duplicates).toBe(1);
    const [after] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(after!.deliveries.map((entry) => entry.trigger)).toEqual(["automatic", "resend"]);

    session.userId = m.supportId;
    expect(await resendWebhookEventAction({ eventId: event!.id, endpointId: m.endpointId })).toMatchObject({
      ok: false,
      message: "Your role (Support) may not add and change webhook endpoints and resend events.",
    });
    const other = await subscribedMerchant();
    session.userId = other.ownerId;
    expect(await resendWebhookEventAction({ eventId: event!.id, endpointId: other.endpointId })).toMatchObject({
      ok: false,
      message: "This event does not exist.",
    });
    session.userId = m.ownerId;
    expect(await resendWebhookEventAction({ eventId: event!.id, endpointId: other.endpointId })).toMatchObject({
      ok: false,
      message: "This endpoint does not exist.",
    });
    expect(await listInvoiceEvents(t.db, other.merchantId, id)).toEqual([]);
    expect(receiver.state.requests).toHaveLength(2);
  });

  it("rolling an endpoint's secret: two v1 values for 24 hours, so a receiver that knows only the old secret still verifies; afterwards only the new one", async () => {
    const m = await subscribedMerchant();
    const other = await addEndpoint(second);
    const rotated = await rotateWebhookSecretAction({ endpointId: m.endpointId });
    expect(rotated).toMatchObject({ ok: true, data: { secret: expect.stringMatching(/^whsec_/), previousRetiresAt: expect.any(String) } });
    const { secret: fresh, previousRetiresAt } = (rotated as { data: { secret: string; previousRetiresAt: string } }).data;
    expect(fresh).not.toBe(m.secret);
    expect(Date.parse(previousRetiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(JSON.stringify(await listEndpoints(t.db, m.merchantId))).not.toMatch(/whsec_/);

    const id = await bInvoice(m);
    receiver.state.secrets = [m.secret]; // has not switched yet
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    await deliver();
    const first = receiver.state.requests.at(-1)!;
    expect(String(first.headers["x-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(first.raw, String(first.headers["x-signature"]), m.secret)).toBe(true);
    expect(verifyWebhook(first.raw, String(first.headers["x-signature"]), fresh)).toBe(true);
    expect(receiver.state.processed.size).toBe(1);
    // The other endpoint's secret was not rolled: one v1, its own.
    const atOther = second.state.requests.at(-1)!;
    expect(String(atOther.headers["x-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(atOther.raw, String(atOther.headers["x-signature"]), other.secret)).toBe(true);

    // 24 hours later the old secret has retired.
    await t.db
      .update(webhookSecrets)
      .set({ retiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(webhookSecrets.endpointId, m.endpointId), isNotNull(webhookSecrets.retiresAt)));
    const [event] = await listInvoiceEvents(t.db, m.merchantId, id);
    expect(await resendWebhookEventAction({ eventId: event!.id, endpointId: m.endpointId })).toMatchObject({
      ok: true,
      data: { succeeded: false, statusCode: 401 },
    });
    const second401 = receiver.state.requests.at(-1)!;
    expect(String(second401.headers["x-signature"])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(second401.raw, String(second401.headers["x-signature"]), m.secret)).toBe(false);
    expect(verifyWebhook(second401.raw, String(second401.headers["x-signature"]), fresh)).toBe(true);
    expect((await listEndpoints(t.db, m.merchantId)).find((endpoint) => endpoint.id === m.endpointId)).toMatchObject({ retiringSecrets: [] });
  });

  it("no endpoint: the event is stored, shown as not sent, and nothing is sent; an endpoint disabled before its try fails it without a request", async () => {
    const m = await teamMerchant(t.db);
    await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() });
    session.userId = m.ownerId;
    const id = await bInvoice(m);
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    expect(await listInvoiceEvents(t.db, m.merchantId, id)).toMatchObject([{ state: "not_sent", targets: [], deliveries: [] }]);
    expect((await listEventLog(t.db, m.merchantId, { state: "not_sent" })).events).toHaveLength(1);

    const endpoint = await addEndpoint(receiver);
    const id2 = await bInvoice(m);
    await changeInvoiceStatus(t.db, { id: id2, status: "created", direction: "payment" }, "expired");
    expect(await updateWebhookEndpointAction({ endpointId: endpoint.id, url: receiver.url, ...ALL, enabled: false })).toMatchObject({ ok: true });
    await deliver();
    expect(await listInvoiceEvents(t.db, m.merchantId, id2)).toMatchObject([{ state: "failing", targets: [{ state: "failed", tries: 0 }], deliveries: [] }]);
    expect(receiver.state.requests).toHaveLength(0);
  });

  it("after 24 hours of failures the delivery is failed and no further try is queued", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    receiver.state.answers.push(500);
    await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    const [created] = await listInvoiceEvents(t.db, m.merchantId, id);
    await t.db
      .update(webhookEvents)
      .set({ createdAt: new Date(Date.now() - 24 * 3600_000 + 5_000) })
      .where(eq(webhookEvents.id, created!.id));
    await deliver();
    expect(await targetRow(created!.id, m.endpointId)).toMatchObject({ state: "failed", tries: 1, nextTryAt: null });
    expect((await listScheduledJobs(t.db, id)).filter((job) => job.name === "webhook-deliver")).toEqual([]);
  });

  it("the sweep queues a due try that has no job (a crash after the change), and queuing it twice is harmless", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    // The change commits, and the process dies before queuing its delivery.
    const event = await t.db.transaction(async (tx) => {
      const [row] = await tx.select().from(invoices).where(eq(invoices.id, id));
      return recordInvoiceEvent(tx, row!, "invoice.status_changed");
    });
    await t.db
      .update(webhookEventTargets)
      .set({ nextTryAt: new Date(Date.now() - 1000) })
      .where(eq(webhookEventTargets.eventId, event.eventId));
    const { webhookDueTriesSweep } = await import("@/lib/webhooks/tasks/webhook-deliver");
    expect(await webhookDueTriesSweep.run(t.db)).toBeGreaterThanOrEqual(1);
    expect(await webhookDueTriesSweep.run(t.db)).toBe(0);
    await deliver();
    expect(await targetRow(event.eventId, m.endpointId)).toMatchObject({ state: "delivered", tries: 1 });
    expect(receiver.state.processed.has(event.eventId)).toBe(true);
  });

  it("no signing secret ever appears in a log line, a delivery, target or event row, or an action result after the first", async () => {
    logged.length = 0;
    const m = await subscribedMerchant();
    const rotated = await rotateWebhookSecretAction({ endpointId: m.endpointId });
    const fresh = (rotated as { data: { secret: string } }).data.secret;
    const id = await bInvoice(m);
    await payWith4242(id);
    await deliver();
    await sendTestWebhookAction({ endpointId: m.endpointId });
    const results = [
      await updateWebhookEndpointAction({ endpointId: m.endpointId, url: receiver.url, ...ALL }),
      await sendTestWebhookAction({ endpointId: m.endpointId }),
      await resendWebhookEventAction({ eventId: (await listInvoiceEvents(t.db, m.merchantId, id))[0]!.id, endpointId: m.endpointId }),
    ];
    const events = await t.db.select().from(webhookEvents).where(eq(webhookEvents.merchantId, m.merchantId));
    const targets = await t.db.select().from(webhookEventTargets).where(eq(webhookEventTargets.merchantId, m.merchantId));
    const endpoints = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.merchantId, m.merchantId));
    const tries = await t.db.select().from(webhookDeliveries);
    const log = await listEventLog(t.db, m.merchantId, {});
    const detail = await getEventDetail(t.db, m.merchantId, log.events[0]!.id);
    const text = JSON.stringify({ logged, results, events, targets, endpoints, tries, log, detail, list: await listEndpoints(t.db, m.merchantId) });
    expect(tries.length).toBeGreaterThan(2);
    for (const secret of [m.secret, fresh]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(6));
    }
  });
});

describe("sequence numbers", () => {
  it("successive events of one invoice are numbered 1, 2, 3 … without gaps, across types, and each delivery carries its number", async () => {
    const m = await subscribedMerchant();
    const id = await bInvoice(m);
    await payWith4242(id);
    await refund(m, id, "5.00");
    await runJobs(t.db);
    await deliver();
    const events = await t.db.select().from(webhookEvents).where(eq(webhookEvents.invoiceId, id)).orderBy(webhookEvents.sequence);
    expect(events.length).toBeGreaterThanOrEqual(4);
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, i) => i + 1));
    // Numbered in the order they were made.
    const made = [...events].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    expect(made.map((event) => event.sequence)).toEqual(made.map((event) => event.sequence).sort((a, b) => a! - b!));
    const [invoice] = await t.db.select({ counter: invoices.eventSequence }).from(invoices).where(eq(invoices.id, id));
    expect(invoice!.counter).toBe(events.length);
    for (const event of events) expect(receiver.state.processed.get(event.id)?.body.meta.sequence).toBe(event.sequence);
  });

  it("concurrent events on different invoices and on one invoice get gapless, distinct numbers per invoice", async () => {
    const m = await subscribedMerchant();
    const ids = await Promise.all(Array.from({ length: 5 }, () => bInvoice(m)));
    // Five invoices changing at once: each gets number 1.
    await Promise.all(ids.map((id) => changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired")));
    // Eight events written at once about one invoice, each in its own transaction, as concurrent refunds would.
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, ids[0]!));
    const written = await Promise.all(Array.from({ length: 8 }, () => t.db.transaction((tx) => recordInvoiceEvent(tx, row!, "refund.created"))));
    await Promise.all(written.map((event) => queueEventDelivery(t.db, ids[0]!, event)));
    for (const id of ids) {
      const numbers = (await t.db.select({ sequence: webhookEvents.sequence }).from(webhookEvents).where(eq(webhookEvents.invoiceId, id)))
        .map((e) => e.sequence)
        .sort((a, b) => a! - b!);
      expect(numbers).toEqual(id === ids[0] ? [1, 2, 3, 4, 5, 6, 7, 8, 9] : [1]);
    }
    // A rolled-back change takes its number with it: the next event continues without a gap.
    await expect(
      t.db.transaction(async (tx) => {
        await recordInvoiceEvent(tx, row!, "refund.created");
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const next = await t.db.transaction((tx) => recordInvoiceEvent(tx, row!, "refund.failed"));
    const [stored] = await t.db.select({ sequence: webhookEvents.sequence }).from(webhookEvents).where(eq(webhookEvents.id, next.eventId));
    expect(stored!.sequence).toBe(10);
  });
});

describe("delivery order", () => {
  /** The sequence numbers each invoice's events reached `r` in, by invoice (first arrivals only). */
  async function arrivalOrder(r: typeof receiver): Promise<Map<string, number[]>> {
    const byInvoice = new Map<string, number[]>();
    const seen = new Set<string>();
    for (const request of r.state.requests) {
      const eventId = String(request.body.meta.event_id);
      if (seen.has(eventId)) continue;
      seen.add(eventId);
      const [event] = await t.db
        .select({ invoiceId: webhookEvents.invoiceId, sequence: webhookEvents.sequence })
        .from(webhookEvents)
        .where(eq(webhookEvents.id, eventId));
      byInvoice.set(event!.invoiceId!, [...(byInvoice.get(event!.invoiceId!) ?? []), event!.sequence!]);
    }
    return byInvoice;
  }

  async function pendingTargets(merchantId: string): Promise<number> {
    const rows = await t.db
      .select({ eventId: webhookEventTargets.eventId })
      .from(webhookEventTargets)
      .where(and(eq(webhookEventTargets.merchantId, merchantId), eq(webhookEventTargets.state, "pending")));
    return rows.length;
  }

  /** Six events per invoice, each committed in its own transaction, as a payment and its refunds write them. */
  async function sixEventsEach(ids: string[]) {
    const written: { id: string; event: Awaited<ReturnType<typeof recordInvoiceEvent>> }[] = [];
    for (const id of ids) {
      const [row] = await t.db.select().from(invoices).where(eq(invoices.id, id));
      for (const type of [
        "invoice.status_changed",
        "invoice.status_changed",
        "invoice.status_changed",
        "refund.created",
        "invoice.status_changed",
        "refund.succeeded",
      ]) {
        written.push({ id, event: await t.db.transaction((tx) => recordInvoiceEvent(tx, row!, type)) });
      }
    }
    return written;
  }

  it("every delivery succeeding at once: each endpoint gets each invoice's events in sequence order, though their first tries were queued last first and four workers take them together; invoices go in parallel", async () => {
    const m = await subscribedMerchant();
    await addEndpoint(second);
    const ids = await Promise.all(Array.from({ length: 10 }, () => bInvoice(m)));
    const written = await sixEventsEach(ids);
    // Each change queues its deliveries after its own commit, so concurrent requests reach the
    // queue in any order: here the worst one, the last event first.
    for (const { id, event } of [...written].reverse()) await queueEventDelivery(t.db, id, event);
    receiver.state.delayMs = second.state.delayMs = 10;
    // Four workers polling at once, as four processes would (rounds: a worker may stop while another's delivery queues the next).
    for (let round = 0; round < 30 && (await pendingTargets(m.merchantId)) > 0; round += 1) {
      await Promise.all(Array.from({ length: 4 }, () => deliver()));
    }
    expect(await pendingTargets(m.merchantId)).toBe(0);
    for (const r of [receiver, second]) {
      const order = await arrivalOrder(r);
      expect([...order.keys()].sort()).toEqual([...ids].sort());
      for (const [, sequences] of order) expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
      expect([...order.values()].map((sequences) => sequences.length)).toEqual(ids.map(() => 6));
      expect(r.state.rejected).toBe(0);
      // Different invoices did not wait for each other.
      expect(r.state.maxInFlight).toBeGreaterThan(1);
    }
  });

  it("a failing try holds that invoice's later events back until it is delivered on its retry; another invoice's events go meanwhile", async () => {
    const m = await subscribedMerchant();
    const [held, free] = [await bInvoice(m), await bInvoice(m)];
    const written = await sixEventsEach([held]);
    const [first, ...later] = written;
    const [freeRow] = await t.db.select().from(invoices).where(eq(invoices.id, free));
    const freeEvent = await t.db.transaction((tx) => recordInvoiceEvent(tx, freeRow!, "invoice.status_changed"));
    receiver.state.answers.push(500);
    await queueEventDelivery(t.db, held, first!.event);
    await deliver();
    for (const { id, event } of later) await queueEventDelivery(t.db, id, event);
    await queueEventDelivery(t.db, free, freeEvent);
    await deliver();
    // Only the failed first try and the other invoice's event reached the receiver.
    expect(receiver.state.requests.map((request) => request.body.meta.event_id)).toEqual([first!.event.eventId, freeEvent.eventId]);
    expect((await targetRow(later[0]!.event.eventId, m.endpointId)).state).toBe("pending");
    await makeJobsDue(t.db, { invoiceId: held });
    for (let round = 0; round < 10 && (await pendingTargets(m.merchantId)) > 0; round += 1) await deliver();
    expect((await arrivalOrder(receiver)).get(held)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe("event types", () => {
  it("the types an endpoint may choose are exactly the ones the code writes", async () => {
    const { INVOICE_STATUS_CHANGED } = await import("@/lib/invoices/events");
    const { PAYOUT_CANCELED } = await import("@/lib/processing/cancel-payout");
    const { REFUND_EVENT_TYPES } = await import("@/lib/refunds/events");
    const { CONNECTION_HEALTH_CHANGED } = await import("@/lib/analytics/connection-health");
    const { PAYMENT_METHOD_EVENT_TYPES } = await import("@/lib/payment-methods/store");
    const { INVOICE_AUTHORIZED, INVOICE_CAPTURED, INVOICE_VOIDED } = await import("@/lib/processing/authorization");
    const { DISPUTE_EVENT_TYPES } = await import("@/lib/disputes/events");
    const { ALERT_EVENT_TYPES } = await import("@/lib/alerts/deliver");
    const { RISK_BLOCKED } = await import("@/lib/processing/risk-gate");
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual(
      [
        INVOICE_STATUS_CHANGED,
        PAYOUT_CANCELED,
        ...REFUND_EVENT_TYPES,
        CONNECTION_HEALTH_CHANGED,
        ...PAYMENT_METHOD_EVENT_TYPES,
        INVOICE_AUTHORIZED,
        INVOICE_CAPTURED,
        INVOICE_VOIDED,
        ...DISPUTE_EVENT_TYPES,
        ...ALERT_EVENT_TYPES,
        RISK_BLOCKED,
      ].sort(),
    );
  });
});

describe("event log", () => {
  it("lists the merchant's events newest first, filters by type, state, endpoint and invoice, and pages by keyset without repeats or gaps", async () => {
    const m = await subscribedMerchant();
    const ids = await Promise.all(Array.from({ length: 3 }, () => bInvoice(m)));
    for (const id of ids) await changeInvoiceStatus(t.db, { id, status: "created", direction: "payment" }, "expired");
    await sendTestWebhookAction({ endpointId: m.endpointId });
    await deliver();

    const all = await listEventLog(t.db, m.merchantId, {});
    expect(all.events).toHaveLength(4);
    expect(all.events[0]).toMatchObject({ type: "webhook.test", invoiceId: null, sequence: null, state: "delivered", endpoints: 1, delivered: 1 });
    expect(all.next).toBeNull();
    expect((await listEventLog(t.db, m.merchantId, { type: "invoice.status_changed" })).events.map((e) => e.invoiceId).sort()).toEqual([...ids].sort());
    expect((await listEventLog(t.db, m.merchantId, { invoice: ids[1]! })).events).toMatchObject([
      { invoiceId: ids[1], sequence: 1, invoiceStatus: "expired", state: "delivered" },
    ]);
    expect((await listEventLog(t.db, m.merchantId, { state: "pending" })).events).toEqual([]);
    expect((await listEventLog(t.db, m.merchantId, { endpoint: m.endpointId })).events).toHaveLength(4);

    const pages: string[][] = [];
    let after: string | undefined;
    do {
      const page = await listEventLog(t.db, m.merchantId, after ? { after } : {}, 3);
      pages.push(page.events.map((e) => e.id));
      after = page.next ?? undefined;
    } while (after);
    expect(pages.map((page) => page.length)).toEqual([3, 1]);
    expect(pages.flat()).toEqual(all.events.map((e) => e.id));

    // Another merchant sees none of them, by any filter.
    const other = await subscribedMerchant();
    expect((await listEventLog(t.db, other.merchantId, {})).events).toEqual([]);
    expect((await listEventLog(t.db, other.merchantId, { invoice: ids[0]!, endpoint: m.endpointId })).events).toEqual([]);
    expect(await getEventDetail(t.db, other.merchantId, all.events[0]!.id)).toBeUndefined();
  });
});

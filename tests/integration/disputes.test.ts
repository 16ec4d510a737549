import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { and, asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { POST as callbackRoute } from "@/app/api/callbacks/[slug]/[connectionId]/route";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { POST as REFUND } from "@/app/api/commerce/payment-invoices/[id]/refunds/route";
import { GET as LIST } from "@/app/api/commerce/disputes/route";
import { GET as READ } from "@/app/api/commerce/disputes/[id]/route";
import { POST as EVIDENCE } from "@/app/api/commerce/disputes/[id]/evidence/route";
import { POST as SUBMIT } from "@/app/api/commerce/disputes/[id]/submit/route";
import { POST as ACCEPT } from "@/app/api/commerce/disputes/[id]/accept/route";
import { POST as UPLOAD } from "@/app/api/commerce/files/route";
import { GET as DOWNLOAD } from "@/app/api/commerce/files/[id]/route";
import { createApiKey } from "@/lib/api-keys/queries";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { auditLog, connections, disputes, invoiceAttempts, mailOutbox, providerCallbacks, users, webhookEvents } from "@/lib/db/schema";
import { applyDisputeReport } from "@/lib/disputes/apply-report";
import { disputeDocumentSchema, disputeListDocumentSchema, fileDocumentSchema } from "@/lib/disputes/resource-schemas";
import { queueDisputeFollowUps, sendDisputeReminders } from "@/lib/disputes/tasks/dispute-follow-up";
import { readDisputeSteps } from "@/lib/disputes/timeline";
import { CONNECTION_HEALTH_CHANGED, recheckDisputeRates } from "@/lib/analytics/connection-health";
import { getOverview, readConnectionDisputeRate, readPeriod } from "@/lib/analytics/overview";
import { rebuildRollups } from "@/lib/analytics/rollups";
import { renderEventBody } from "@/lib/webhooks/body";
import { serveCommerce } from "@/server/serve-commerce";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { logger } from "@/lib/logger";
import { backgroundMailSettled } from "@/lib/mail";
import { payWithCard } from "@/lib/processing/engine";
import type { DisputeReport } from "@/lib/providers/kit/adapter";
import { assertValidApiResponse } from "../helpers/api-validator";
import { setUpTestDb } from "./helpers/db";
import { fakeDisputeCallbackBody, setUpFakeProvider, signFakeCallback } from "./helpers/fake-provider";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { runAllJobs } from "./helpers/jobs";
import { errorsOf, send } from "./helpers/send";

/**
 * Disputes through the service's entry points, against a fake provider whose dispute answers and
 * signed dispute callbacks each test scripts: the callback opens and moves a dispute (forward only,
 * replays and forgeries refused), the invoice shows what it holds and refuses to refund it, the
 * inbox lists and exports it, evidence with uploaded files is saved and submitted once, Accept
 * concedes, the follow-up sweep asks what a lost callback left open, and another merchant or the
 * other mode finds nothing.
 */
const t = setUpTestDb();
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };
const fake = setUpFakeProvider({ replace: ["provider-a"] });
beforeEach(() => {
  fake.reset();
  resetRateLimits();
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

type Dispute = { id: string; attributes: Record<string, unknown>; relationships: Record<string, { data: { id: string } }>; links: { self: string } };
type Invoice = { id: string; attributes: Record<string, unknown>; relationships: Record<string, { links?: { related: string } }> };

const DAY = 24 * 60 * 60_000;
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

type Paid = { m: InvoiceMerchant; invoiceId: string; connectionId: string; attemptId: string; paymentReference: string };

async function paidInvoice(options: { m?: InvoiceMerchant; live?: boolean; amount?: string; connectionId?: string } = {}): Promise<Paid> {
  const mode = options.live ? "live" : "test";
  const m = options.m ?? (await invoiceMerchant(t.db, { mode }));
  const connection = options.connectionId ? { id: options.connectionId } : await connect(t.db, m.merchantId, "provider-a", "h2h", { mode });
  const body = templateEnvelope(findTemplate("a-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.amount = options.amount ?? "100.00";
  body.data.attributes.test_mode = !options.live;
  // A test payment is pinned to its own connection, so a merchant's payments can be told apart by connection.
  if (!options.live) (body.data as Record<string, unknown>).relationships = { connection: { data: { type: "connection", id: connection.id } } };
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  const paymentReference = `pay-${randomBytes(6).toString("hex")}`;
  fake.script.set(connection.id, [{ kind: "succeeded", providerReference: paymentReference, processedAmountMinor: 10000n }]);
  const paid = await payWithCard(t.db, created.invoice.id, CARD);
  if (paid.kind === "refused" || paid.invoice.status !== "processed")
    throw new Error(`setup: not paid (${paid.kind === "refused" ? "refused" : paid.invoice.status})`);
  const [attempt] = await t.db.select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, created.invoice.id));
  expect(attempt).toMatchObject({ connectionId: connection.id, providerReference: paymentReference });
  return { m, invoiceId: created.invoice.id, connectionId: connection.id, attemptId: attempt!.id, paymentReference };
}

function report(paid: Paid, overrides: Partial<DisputeReport> = {}): DisputeReport {
  return {
    disputeReference: `dsp-${randomBytes(6).toString("hex")}`,
    paymentReference: paid.paymentReference,
    amountMinor: 4000n,
    currency: "UAH",
    reason: "not_received",
    providerReason: "13.1 Merchandise not received",
    status: "needs_response",
    evidenceDueBy: new Date(Date.now() + 10 * DAY),
    ...overrides,
  };
}

const notificationId = () => `ntf_${randomBytes(8).toString("hex")}`;

/** Posts a dispute notification to the callback route as the fake provider signs it (or with `signature`). */
async function callback(paid: Paid, dispute: DisputeReport, options: { id?: string; signature?: string } = {}) {
  const rawBody = fakeDisputeCallbackBody(options.id ?? notificationId(), dispute);
  const request = new Request(`http://test/api/callbacks/provider-a/${paid.connectionId}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-fake-signature": options.signature ?? signFakeCallback(rawBody) },
    body: rawBody,
  });
  const response = await callbackRoute(request, { params: Promise.resolve({ slug: "provider-a", connectionId: paid.connectionId }) });
  return { status: response.status, callback: await latestCallback(paid.connectionId) };
}

/** Callbacks already looked at: the one a post stored is the row not seen before. */
const seenCallbacks = new Set<string>();

async function latestCallback(connectionId: string) {
  const rows = await t.db.select().from(providerCallbacks).where(eq(providerCallbacks.connectionId, connectionId));
  const fresh = rows.filter((row) => !seenCallbacks.has(row.id));
  for (const row of fresh) seenCallbacks.add(row.id);
  expect(fresh).toHaveLength(1);
  return fresh[0];
}

/** Opens a dispute through a signed callback; the dispute as the API reads it. */
async function opened(paid: Paid, overrides: Partial<DisputeReport> = {}): Promise<{ dispute: Dispute; report: DisputeReport }> {
  const dispute = report(paid, overrides);
  fake.disputes.set(dispute.disputeReference, dispute);
  const answer = await callback(paid, dispute);
  expect(answer.status).toBe(200);
  const list = await send<Dispute[]>(LIST, {}, { path: `/api/commerce/disputes?filter[invoice]=${paid.invoiceId}`, key: paid.m.key });
  const found = list.json.data.find((row) => row.attributes.provider_reference === dispute.disputeReference);
  if (!found) throw new Error("setup: the dispute was not opened");
  return { dispute: found, report: dispute };
}

const read = (m: InvoiceMerchant, id: string, key = m.key) => send<Dispute, { id: string }>(READ, { id }, { path: `/api/commerce/disputes/${id}`, key });
const invoiceOf = (m: InvoiceMerchant, id: string) =>
  send<Invoice, { id: string }>(GET_PAYMENT, { id }, { path: `/api/commerce/payment-invoices/${id}`, key: m.key });
const evidence = (m: InvoiceMerchant, id: string, attributes: Record<string, unknown>, key = m.key) =>
  send<Dispute, { id: string }>(
    EVIDENCE,
    { id },
    { method: "POST", path: `/api/commerce/disputes/${id}/evidence`, key, body: { data: { type: "dispute-evidence", attributes } } },
  );
const submit = (m: InvoiceMerchant, id: string, key = m.key) =>
  send<Dispute, { id: string }>(SUBMIT, { id }, { method: "POST", path: `/api/commerce/disputes/${id}/submit`, key });
const accept = (m: InvoiceMerchant, id: string, key = m.key) =>
  send<Dispute, { id: string }>(ACCEPT, { id }, { method: "POST", path: `/api/commerce/disputes/${id}/accept`, key });

/** A multipart upload through the route (the platform writes the boundary), or a raw body with the given Content-Type. */
async function upload(key: string, parts: { file?: Blob | string; filename?: string; purpose?: string } | { raw: BodyInit; contentType: string }) {
  let request: Request;
  if ("raw" in parts) {
    request = new Request("http://test/api/commerce/files", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": parts.contentType },
      body: parts.raw,
    });
  } else {
    const form = new FormData();
    if (parts.purpose !== undefined) form.set("purpose", parts.purpose);
    if (typeof parts.file === "string") form.set("file", parts.file);
    else if (parts.file) form.set("file", parts.file, parts.filename ?? "evidence.pdf");
    request = new Request("http://test/api/commerce/files", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form });
  }
  const response = await UPLOAD(request, { params: Promise.resolve({}) });
  const text = await response.text();
  expect(response.status).toBeLessThan(500);
  assertValidApiResponse({ method: "POST", url: "/api/commerce/files", status: response.status, headers: response.headers, body: text });
  return {
    status: response.status,
    headers: response.headers,
    json: JSON.parse(text) as {
      data: { id: string; attributes: Record<string, unknown>; links: { self: string } };
      errors: { code: string; source?: { pointer?: string } }[];
    },
  };
}

const pdf = (bytes: Uint8Array = PDF, type = "application/pdf") => new Blob([new Uint8Array(bytes)], { type });

async function download(key: string, id: string) {
  const response = await DOWNLOAD(new Request(`http://test/api/commerce/files/${id}`, { headers: { authorization: `Bearer ${key}` } }), {
    params: Promise.resolve({ id }),
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("a dispute notified by callback", () => {
  it("opens once, shows on the invoice, events and the owners' e-mail follow; it moves forward only, and a replay or forgery changes nothing", async () => {
    const paid = await paidInvoice();
    const first = report(paid);
    const answer = await callback(paid, first);
    expect(answer.status).toBe(200);
    expect(answer.callback).toMatchObject({ outcome: "applied", invoiceId: paid.invoiceId, attemptId: paid.attemptId });

    const [row] = await t.db.select().from(disputes).where(eq(disputes.invoiceId, paid.invoiceId));
    expect(row).toMatchObject({ status: "needs_response", amount: "40.00", amountMinor: 4000n, reason: "not_received", testMode: true, closedAt: null });
    expect(row!.id).toMatch(/^dp_/);
    const dispute = await read(paid.m, row!.id);
    expect(dispute.status).toBe(200);
    expect(disputeDocumentSchema.safeParse(dispute.json).error).toBeUndefined();
    expect(dispute.json.data.relationships.invoice!.data.id).toBe(paid.invoiceId);

    const invoice = (await invoiceOf(paid.m, paid.invoiceId)).json.data;
    expect(invoice.attributes).toMatchObject({ disputed_amount: "40.00", refunded_amount: "0.00" });
    expect(invoice.relationships.disputes!.links!.related).toContain(`/api/commerce/disputes?`);

    // The owners are told (the outbox without SMTP), once.
    const [owner] = await t.db.select().from(users).where(eq(users.merchantId, paid.m.merchantId));
    await backgroundMailSettled();
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, owner!.email));
    expect(mails.map((mail) => mail.subject)).toEqual(["[Test] A customer disputed a payment of 40.00 UAH"]);
    expect(mails[0]!.text).toContain(row!.id);

    // The same notification again: a replay, refused and stored as such.
    const body = fakeDisputeCallbackBody("ntf_replayed_once", first);
    await callback(paid, first, { id: "ntf_replayed_once" });
    const replay = await callback(paid, first, { id: "ntf_replayed_once", signature: signFakeCallback(body) });
    expect(replay.status).toBe(401);
    expect(replay.callback).toMatchObject({ outcome: "rejected", reason: "replayed" });
    // A forged one (wrong signature) is refused before anything in it is read.
    const forged = await callback(paid, { ...first, status: "lost" }, { signature: "0".repeat(64) });
    expect(forged.status).toBe(401);
    expect(forged.callback).toMatchObject({ outcome: "rejected", reason: "invalid signature" });

    // Forward: under review, then won; the won dispute gives the amount back.
    expect((await callback(paid, { ...first, status: "under_review" })).callback).toMatchObject({ outcome: "applied" });
    // An older report (needs_response) arriving late never moves it back.
    const late = await callback(paid, { ...first, status: "needs_response" });
    expect(late.status).toBe(200);
    expect(late.callback).toMatchObject({ outcome: "superseded" });
    expect((await read(paid.m, row!.id)).json.data.attributes.status).toBe("under_review");
    await callback(paid, { ...first, status: "won" });
    const won = (await read(paid.m, row!.id)).json.data.attributes;
    expect(won).toMatchObject({ status: "won", closed: expect.any(String) });
    // Closed stays closed: a "lost" after "won" is superseded.
    expect((await callback(paid, { ...first, status: "lost" })).callback).toMatchObject({ outcome: "superseded" });
    expect((await invoiceOf(paid.m, paid.invoiceId)).json.data.attributes.disputed_amount).toBe("0.00");

    // One event per step, numbered in the invoice's sequence.
    const events = await t.db
      .select({ type: webhookEvents.type, sequence: webhookEvents.sequence, dispute: webhookEvents.dispute })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.invoiceId, paid.invoiceId)))
      .orderBy(asc(webhookEvents.sequence));
    const disputeEvents = events.filter((event) => event.type.startsWith("dispute."));
    expect(disputeEvents.map((event) => [event.type, (event.dispute as { status: string }).status])).toEqual([
      ["dispute.created", "needs_response"],
      ["dispute.updated", "under_review"],
      ["dispute.closed", "won"],
    ]);
    // The delivered body: the dispute as data, its invoice (as it was) included, signed and retried as every event.
    const [created] = await t.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.invoiceId, paid.invoiceId), eq(webhookEvents.type, "dispute.created")));
    const delivered = JSON.parse(renderEventBody(created!)) as { data: Dispute; included: Invoice[]; meta: Record<string, unknown> };
    expect(disputeDocumentSchema.safeParse({ data: delivered.data }).error).toBeUndefined();
    expect(delivered.data.attributes.status).toBe("needs_response");
    expect(delivered.included[0]!.attributes.disputed_amount).toBe("40.00");
    expect(delivered.meta).toMatchObject({ event_type: "dispute.created", sequence: created!.sequence });
    // The invoice page's timeline shows each step.
    expect((await readDisputeSteps(t.db, paid.m.merchantId, paid.invoiceId)).map((step) => step.step)).toEqual(["opened", "under_review", "won"]);
    const sequences = events.map((event) => event.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a! - b!));
    expect(new Set(sequences).size).toBe(sequences.length);
  });

  it("refuses a notification about no payment of the connection (404), and a live provider's word about a test payment", async () => {
    const paid = await paidInvoice();
    const unknown = await callback(paid, report(paid, { paymentReference: "pay-nobody", paymentKey: undefined }));
    expect(unknown.status).toBe(404);
    expect(unknown.callback).toMatchObject({ outcome: "rejected" });
    // The payment key (the attempt's id) finds the payment too.
    const byKey = await callback(paid, report(paid, { paymentReference: undefined, paymentKey: paid.attemptId }));
    expect(byKey.status).toBe(200);
    // Applied directly as a live connection would report it: not applied to a test payment.
    const refused = await applyDisputeReport(t.db, { id: paid.connectionId, merchantId: paid.m.merchantId, mode: "live" }, report(paid), "test");
    expect(refused.kind).toBe("mode_mismatch");
  });

  it("a lost dispute keeps holding the money; a refund beyond the rest is refused 409 naming the dispute, within it goes", async () => {
    const paid = await paidInvoice();
    const { dispute, report: first } = await opened(paid, { amountMinor: 7000n });
    await callback(paid, { ...first, status: "lost" });
    expect((await invoiceOf(paid.m, paid.invoiceId)).json.data.attributes.disputed_amount).toBe("70.00");
    const refund = (amount?: string) =>
      send(
        REFUND,
        { id: paid.invoiceId },
        {
          method: "POST",
          path: `/api/commerce/payment-invoices/${paid.invoiceId}/refunds`,
          key: paid.m.key,
          body: { data: { type: "refund", attributes: { reference_id: newReference(), ...(amount ? { amount } : {}) } } },
        },
      );
    const over = await refund("30.01");
    expect(over.status).toBe(409);
    expect(errorsOf(over)).toEqual([["(none)", "disputed"]]);
    expect(over.text).toContain(dispute.id);
    expect((await refund("30.00")).status).toBe(201);
    const nothingLeft = await refund();
    expect(nothingLeft.status).toBe(409);
    expect(nothingLeft.text).toContain(dispute.id);
  });
});

describe("the overview's money", () => {
  it("takes lost and accepted disputes off the net per currency, counts each connection's dispute rate, and a rebuild agrees", async () => {
    const paid = await paidInvoice();
    const second = await paidInvoice({ m: paid.m });
    const lost = await opened(paid, { amountMinor: 3000n });
    await callback(paid, { ...lost.report, status: "lost" });
    await opened(second, { amountMinor: 1000n });
    const won = await opened(second, { amountMinor: 500n });
    await callback(second, { ...won.report, status: "won" });
    const period = readPeriod({ period: "today" }).period;
    const overview = await getOverview(t.db, paid.m.merchantId, "test", period);
    const uah = overview.totals.find((totals) => totals.currency === "UAH")!;
    expect(uah.payments.minor).toBe(20000n);
    expect(uah.disputes).toEqual({ count: 1, minor: 3000n });
    expect(uah.netMinor).toBe(20000n - 3000n);
    const rates = Object.fromEntries(overview.connections.map((connection) => [connection.id, [connection.disputes, connection.disputeRate]]));
    expect(rates[paid.connectionId]).toEqual([1, 1]);
    expect(rates[second.connectionId]).toEqual([2, 2]);
    // The connection page reads the same rollups over its last 30 days.
    expect(await readConnectionDisputeRate(t.db, paid.m.merchantId, { id: second.connectionId, mode: "test" })).toEqual({
      days: 30,
      disputes: 2,
      payments: 1,
      rate: 2,
    });
    await rebuildRollups(t.db, { merchantId: paid.m.merchantId });
    expect(await getOverview(t.db, paid.m.merchantId, "test", period)).toEqual(overview);
  });
});

describe("the connection's health", () => {
  it("turns degraded while 1 % or more of its last 30 days' payments are disputed (from 20 payments), with its event, and back as the days pass", async () => {
    const first = await paidInvoice();
    for (let i = 1; i < 20; i++) await paidInvoice({ m: first.m, connectionId: first.connectionId });
    const connection = async () => (await t.db.select().from(connections).where(eq(connections.id, first.connectionId)))[0]!;
    expect((await connection()).health).toBe("healthy");
    await opened(first);
    // One dispute of 20 payments is 5 %: the provider works, the connection is degraded (never failing for disputes).
    expect(await connection()).toMatchObject({ health: "degraded", disputeRateHigh: true });
    // The hourly sweep changes nothing while the rate stands, and lowers it once the days have left the window.
    expect(await recheckDisputeRates(t.db)).toBe(0);
    expect(await recheckDisputeRates(t.db, new Date(Date.now() + 31 * DAY))).toBe(1);
    expect(await connection()).toMatchObject({ health: "healthy", disputeRateHigh: false });
    const events = await t.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.merchantId, first.m.merchantId), eq(webhookEvents.type, CONNECTION_HEALTH_CHANGED)))
      .orderBy(asc(webhookEvents.createdAt));
    expect(events.map((event) => [event.connection?.previousHealth, event.connection?.health])).toEqual([
      ["healthy", "degraded"],
      ["degraded", "healthy"],
    ]);
  });

  it("stays healthy with one dispute among fewer than 20 payments", async () => {
    const first = await paidInvoice();
    await opened(first);
    const [row] = await t.db.select().from(connections).where(eq(connections.id, first.connectionId));
    expect(row).toMatchObject({ health: "healthy", disputeRateHigh: false });
  });
});

describe("the dispute inbox", () => {
  it("lists newest first in keyset pages, filters by status, connection, invoice and deadline, and exports CSV", async () => {
    const paid = await paidInvoice();
    const other = await paidInvoice({ m: paid.m });
    const soon = await opened(paid, { evidenceDueBy: new Date(Date.now() + 2 * DAY) });
    const later = await opened(other, { evidenceDueBy: new Date(Date.now() + 20 * DAY) });
    const review = await opened(paid);
    await callback(paid, { ...review.report, status: "under_review" });

    const list = (query: string) => send<Dispute[]>(LIST, {}, { path: `/api/commerce/disputes${query}`, key: paid.m.key });
    const all = await list("");
    expect(disputeListDocumentSchema.safeParse(all.json).error).toBeUndefined();
    expect(all.json.data.map((row) => row.id)).toEqual([review.dispute.id, later.dispute.id, soon.dispute.id]);

    const first = await list("?page[size]=2");
    expect(first.json.data).toHaveLength(2);
    const next = (first.json as unknown as { links: { next: string } }).links.next;
    const second = await list(new URL(next).search);
    expect(second.json.data.map((row) => row.id)).toEqual([soon.dispute.id]);
    expect((second.json as unknown as { links: { next?: string } }).links.next).toBeUndefined();

    expect((await list("?filter[status]=under_review")).json.data.map((row) => row.id)).toEqual([review.dispute.id]);
    expect((await list("?filter[status]=open")).json.data).toHaveLength(3);
    expect((await list(`?filter[connection]=${other.connectionId}`)).json.data.map((row) => row.id)).toEqual([later.dispute.id]);
    const due = new Date(Date.now() + 5 * DAY).toISOString();
    expect((await list(`?filter[due_before]=${due}`)).json.data.map((row) => row.id)).toEqual([soon.dispute.id]);

    for (const [query, parameter] of [
      ["?filter[status]=pending", "filter[status]"],
      ["?filter[connection]=nope", "filter[connection]"],
      ["?filter[due_before]=tomorrow", "filter[due_before]"],
      ["?page[size]=0", "page[size]"],
      ["?page[after]=bm90LWEtY3Vyc29y", "page[after]"],
      ["?filter[reason]=fraudulent", "filter[reason]"],
    ]) {
      const refused = await list(query!);
      expect(refused.status, query).toBe(400);
      expect(refused.json.errors.map((error) => error.source?.parameter)).toContain(parameter);
    }

    const csv = await LIST(
      new Request("http://test/api/commerce/disputes?filter[status]=open", { headers: { authorization: `Bearer ${paid.m.key}`, accept: "text/csv" } }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="disputes-/);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toMatch(/^id,status,amount,currency,reason/);
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual([review.dispute.id, later.dispute.id, soon.dispute.id]);
  });
});

describe("responding to a dispute", () => {
  it("saves a draft with the merchant's own files, submits once even when sent 100 times at once, and the provider's answer moves it to review", async () => {
    const paid = await paidInvoice();
    const { dispute } = await opened(paid);
    const file = await upload(paid.m.key, { file: pdf(), purpose: "dispute_evidence", filename: "receipt.pdf" });
    expect(file.status).toBe(201);
    // Another merchant's file, or one of the other mode, is no file of this dispute: 422 at its index.
    const stranger = await invoiceMerchant(t.db);
    const strangers = await upload(stranger.key, { file: pdf(), purpose: "dispute_evidence" });
    const draft = await evidence(paid.m, dispute.id, { explanation: "Delivered", file_ids: [file.json.data.id, strangers.json.data.id] });
    expect(draft.status).toBe(422);
    expect(errorsOf(draft)).toEqual([["/data/attributes/file_ids/1", "unknown_file"]]);
    for (const [attributes, pointer] of [
      [{ explanation: 5 }, "/data/attributes/explanation"],
      [{ file_ids: ["nope"] }, "/data/attributes/file_ids/0"],
      [{ colour: "red" }, "/data/attributes/colour"],
    ] as const) {
      const refused = await evidence(paid.m, dispute.id, attributes);
      expect(refused.status, JSON.stringify(attributes)).toBe(422);
      expect(errorsOf(refused).map(([at]) => at)).toContain(pointer);
    }
    // Nothing saved yet: Submit has nothing to send.
    const empty = await submit(paid.m, dispute.id);
    expect(empty.status).toBe(409);
    expect(errorsOf(empty)).toEqual([["(none)", "evidence_missing"]]);

    const saved = await evidence(paid.m, dispute.id, { explanation: "Delivered and signed for", file_ids: [file.json.data.id] });
    expect(saved.status).toBe(200);
    expect(saved.json.data.attributes.evidence).toEqual({ explanation: "Delivered and signed for", file_ids: [file.json.data.id] });
    expect(fake.calls.filter((call) => call.op.startsWith("dispute-"))).toEqual([]);

    // A hundred submits at once: one provider call, with the dispute's id as the idempotency key.
    let release!: () => void;
    fake.hold = new Promise<void>((resolve) => (release = resolve));
    const all = Promise.all(Array.from({ length: 100 }, () => submit(paid.m, dispute.id)));
    await vi.waitFor(() => expect(fake.calls.some((call) => call.op === "dispute-submit")).toBe(true));
    release();
    const answers = await all;
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    const submits = fake.calls.filter((call) => call.op === "dispute-submit");
    expect(submits.map((call) => call.idempotencyKey)).toEqual([dispute.id]);
    // The files went with it (by their hash).
    expect(fake.received.filter((body) => body.includes(String(file.json.data.attributes.sha256)))).toHaveLength(1);
    const after = (await read(paid.m, dispute.id)).json.data.attributes;
    expect(after).toMatchObject({ status: "under_review", submitted: expect.any(String) });
    // Once sent: a third submit calls nothing, and the draft is closed.
    expect((await submit(paid.m, dispute.id)).status).toBe(200);
    expect(fake.calls.filter((call) => call.op === "dispute-submit")).toHaveLength(1);
    const locked = await evidence(paid.m, dispute.id, { explanation: "More" });
    expect(locked.status).toBe(409);
    expect(errorsOf(locked)).toEqual([["(none)", "evidence_submitted"]]);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.merchantId, paid.m.merchantId));
    expect(audit.map((entry) => entry.action)).toContain("dispute.evidence_submitted");
  });

  it("after the deadline Submit is refused 409 deadline_passed without calling the provider; a provider failure is 502 and may be sent again", async () => {
    const paid = await paidInvoice();
    const late = await opened(paid, { evidenceDueBy: new Date(Date.now() - 60_000) });
    expect((await evidence(paid.m, late.dispute.id, { explanation: "Late" })).status).toBe(200);
    const refused = await submit(paid.m, late.dispute.id);
    expect(refused.status).toBe(409);
    expect(errorsOf(refused)).toEqual([["(none)", "deadline_passed"]]);
    expect(fake.calls.filter((call) => call.op === "dispute-submit")).toEqual([]);

    const { dispute } = await opened(paid);
    await evidence(paid.m, dispute.id, { shipping_tracking: "DHL 0034" });
    fake.disputeScript.push({ kind: "failed", message: "The provider is unavailable." });
    // 502 (the provider did not take it): read as the documented answer, outside send(), which allows no 5xx.
    const failed = await SUBMIT(
      new Request(`http://test/api/commerce/disputes/${dispute.id}/submit`, { method: "POST", headers: { authorization: `Bearer ${paid.m.key}` } }),
      {
        params: Promise.resolve({ id: dispute.id }),
      },
    );
    const failedText = await failed.text();
    assertValidApiResponse({
      method: "POST",
      url: `/api/commerce/disputes/${dispute.id}/submit`,
      status: failed.status,
      headers: failed.headers,
      body: failedText,
    });
    expect(failed.status).toBe(502);
    expect(JSON.parse(failedText).errors[0].code).toBe("provider_unavailable");
    expect((await read(paid.m, dispute.id)).json.data.attributes).toMatchObject({ status: "needs_response", submitted: null });
    const again = await submit(paid.m, dispute.id);
    expect(again.status).toBe(200);
    expect(again.json.data.attributes.status).toBe("under_review");
    expect(fake.calls.filter((call) => call.op === "dispute-submit")).toHaveLength(2);
  });

  it("Accept concedes once, even sent 100 times at once: closed accepted, the amount held, dispute.closed recorded", async () => {
    const paid = await paidInvoice();
    const { dispute, report: first } = await opened(paid, { amountMinor: 2500n });
    // The provider's answer need not name the payment again: the service knows which dispute it asked about.
    fake.disputeScript.push({ kind: "taken", report: { ...first, paymentReference: undefined, paymentKey: undefined, status: "accepted" } });
    // A hundred at once: one provider call. Every answer is 200 with the acceptance recorded; the one
    // that made the call shows the provider's answer (accepted, closed), the others the dispute as it
    // stood while that call was out (on PostgreSQL they really run side by side).
    const all = await Promise.all(Array.from({ length: 100 }, () => accept(paid.m, dispute.id)));
    expect(new Set(all.map((answer) => answer.status))).toEqual(new Set([200]));
    for (const answer of all) expect(answer.json.data.attributes).toMatchObject({ accepted: expect.any(String) });
    expect(all.filter((answer) => answer.json.data.attributes.status === "accepted").length).toBeGreaterThanOrEqual(1);
    const accepted = await accept(paid.m, dispute.id);
    expect(accepted.status).toBe(200);
    expect(accepted.json.data.attributes).toMatchObject({ status: "accepted", accepted: expect.any(String), closed: expect.any(String) });
    expect(fake.calls.filter((call) => call.op === "dispute-accept")).toHaveLength(1);
    expect((await invoiceOf(paid.m, paid.invoiceId)).json.data.attributes.disputed_amount).toBe("25.00");
    const closed = await t.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.invoiceId, paid.invoiceId), eq(webhookEvents.type, "dispute.closed")));
    expect(closed).toHaveLength(1);
    const afterwards = await submit(paid.m, dispute.id);
    expect(afterwards.status).toBe(409);
  });
});

describe("the follow-up sweep", () => {
  it("asks about disputes under review and past their deadline, once per period across sweeps, and reminds the owners once three days before", async () => {
    const paid = await paidInvoice();
    const review = await opened(paid);
    await callback(paid, { ...review.report, status: "under_review" });
    // The provider decided, but its callback was lost: the status request finds out.
    fake.disputes.set(review.report.disputeReference, { ...review.report, status: "won" });
    const quiet = await opened(paid, { evidenceDueBy: new Date(Date.now() + 10 * DAY) });
    const near = await opened(paid, { evidenceDueBy: new Date(Date.now() + 2 * DAY) });

    // Two processes' sweeps in the same period: one status request each is queued (other tests' disputes are due too).
    expect(await queueDisputeFollowUps(t.db)).toBeGreaterThanOrEqual(1);
    await queueDisputeFollowUps(t.db);
    await runAllJobs(t.db, { name: "dispute-follow-up" });
    const asked = fake.calls.filter((call) => call.op === "dispute-status").map((call) => call.idempotencyKey);
    expect(asked.filter((reference) => reference === review.report.disputeReference)).toHaveLength(1);
    expect(asked).not.toContain(quiet.report.disputeReference);
    expect(asked).not.toContain(near.report.disputeReference);
    expect((await read(paid.m, review.dispute.id)).json.data.attributes.status).toBe("won");
    expect((await read(paid.m, quiet.dispute.id)).json.data.attributes.status).toBe("needs_response");

    const [owner] = await t.db.select().from(users).where(eq(users.merchantId, paid.m.merchantId));
    const reminders = async () => {
      await backgroundMailSettled();
      return (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, owner!.email))).filter((mail) => mail.subject.includes("evidence due by"));
    };
    expect(await sendDisputeReminders(t.db)).toBeGreaterThanOrEqual(1);
    // Once: a second sweep (another process, a minute later) mails nobody.
    expect(await sendDisputeReminders(t.db)).toBe(0);
    const sent = await reminders();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toContain(near.dispute.id);
  });
});

describe("evidence files", () => {
  it("stores a PDF, PNG or JPEG told by its bytes, with its hash, and serves it back to its merchant only as an attachment", async () => {
    const m = await invoiceMerchant(t.db);
    const stored = await upload(m.key, { file: pdf(PDF, "text/plain"), purpose: "dispute_evidence", filename: "../../receipt.pdf" });
    expect(stored.status).toBe(201);
    expect(fileDocumentSchema.safeParse(stored.json).error).toBeUndefined();
    expect(stored.json.data.attributes).toMatchObject({ content_type: "application/pdf", filename: "receipt.pdf", size: PDF.length, test_mode: true });
    expect(stored.json.data.attributes.sha256).toMatch(/^[0-9a-f]{64}$/);
    const png = await upload(m.key, {
      file: pdf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]), "image/png"),
      purpose: "dispute_evidence",
      filename: "photo.png",
    });
    expect(png.json.data.attributes.content_type).toBe("image/png");
    const jpeg = await upload(m.key, {
      file: pdf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]), "image/jpeg"),
      purpose: "dispute_evidence",
      filename: "photo.jpg",
    });
    expect(jpeg.json.data.attributes.content_type).toBe("image/jpeg");

    const got = await download(m.key, stored.json.data.id);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(PDF)).toBe(true);
    expect(got.headers.get("content-type")).toBe("application/pdf");
    expect(got.headers.get("content-disposition")).toMatch(/^attachment; filename="receipt.pdf"/);
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");

    // Another merchant, or a live key of the same merchant, finds nothing.
    const other = await invoiceMerchant(t.db);
    expect((await download(other.key, stored.json.data.id)).status).toBe(404);
    const { key: live } = await createApiKey(t.db, { merchantId: m.merchantId, name: "live", mode: "live" });
    expect((await download(live, stored.json.data.id)).status).toBe(404);
    expect((await download(m.key, "file_nothere")).status).toBe(404);
  });

  it("refuses each bad upload with its status and pointer, storing nothing", async () => {
    const m = await invoiceMerchant(t.db);
    const html = Buffer.from("<!doctype html><script>alert(1)</script>");
    const cases: [string, Awaited<ReturnType<typeof upload>>, number, string | undefined, string][] = [
      [
        "an HTML page named .pdf",
        await upload(m.key, { file: pdf(html), purpose: "dispute_evidence", filename: "evidence.pdf" }),
        415,
        "/data/attributes/file",
        "unsupported_file_type",
      ],
      ["an empty file", await upload(m.key, { file: pdf(new Uint8Array(0)), purpose: "dispute_evidence" }), 422, "/data/attributes/file", "empty_file"],
      [
        "5 MB and one byte",
        await upload(m.key, { file: pdf(Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 + 1 - PDF.length)])), purpose: "dispute_evidence" }),
        413,
        "/data/attributes/file",
        "payload_too_large",
      ],
      ["no file part", await upload(m.key, { purpose: "dispute_evidence" }), 422, "/data/attributes/file", "required"],
      ["file as a text field", await upload(m.key, { file: "%PDF-1.4", purpose: "dispute_evidence" }), 422, "/data/attributes/file", "invalid_value"],
      ["no purpose", await upload(m.key, { file: pdf() }), 422, "/data/attributes/purpose", "required"],
      ["an unknown purpose", await upload(m.key, { file: pdf(), purpose: "selfie" }), 422, "/data/attributes/purpose", "invalid_value"],
      ["no boundary", await upload(m.key, { raw: "--x\r\n\r\n--x--", contentType: "multipart/form-data" }), 400, undefined, "malformed_multipart"],
      ["a broken body", await upload(m.key, { raw: "no parts here", contentType: "multipart/form-data; boundary=abc" }), 400, undefined, "malformed_multipart"],
      ["JSON instead of a form", await upload(m.key, { raw: "{}", contentType: "application/json" }), 415, undefined, "unsupported_media_type"],
    ];
    for (const [what, answer, status, pointer, code] of cases) {
      expect(answer.status, what).toBe(status);
      expect(
        answer.json.errors.map((error) => [error.source?.pointer, error.code]),
        what,
      ).toContainEqual([pointer, code]);
    }
    // A read-only key uploads nothing.
    const { key: readOnly } = await createApiKey(t.db, { merchantId: m.merchantId, name: "reader", scope: "read_only" });
    expect((await upload(readOnly, { file: pdf(), purpose: "dispute_evidence" })).status).toBe(403);
  });
});

describe("tenants and modes", () => {
  it("another merchant's dispute is 404 on every route; a live key sees no test dispute; a read-only key only reads", async () => {
    const paid = await paidInvoice();
    const { dispute } = await opened(paid);
    const stranger = await invoiceMerchant(t.db);
    const { key: live } = await createApiKey(t.db, { merchantId: paid.m.merchantId, name: "live", mode: "live" });
    for (const key of [stranger.key, live]) {
      expect((await read(paid.m, dispute.id, key)).status).toBe(404);
      expect((await evidence(paid.m, dispute.id, { explanation: "x" }, key)).status).toBe(404);
      expect((await submit(paid.m, dispute.id, key)).status).toBe(404);
      expect((await accept(paid.m, dispute.id, key)).status).toBe(404);
      const listed = await send<Dispute[]>(LIST, {}, { path: "/api/commerce/disputes", key });
      expect(listed.json.data).toEqual([]);
    }
    const { key: readOnly } = await createApiKey(t.db, { merchantId: paid.m.merchantId, name: "reader", scope: "read_only" });
    expect((await read(paid.m, dispute.id, readOnly)).status).toBe(200);
    for (const answer of [
      await evidence(paid.m, dispute.id, { explanation: "x" }, readOnly),
      await submit(paid.m, dispute.id, readOnly),
      await accept(paid.m, dispute.id, readOnly),
    ]) {
      expect(answer.status).toBe(403);
    }
    // Ids that cannot exist are simply not found.
    expect((await read(paid.m, "dp_\u0000")).status).toBe(404);
    expect((await read(paid.m, "cpi_not_a_dispute")).status).toBe(404);
  });

  it("a live dispute answers only to a live key", async () => {
    // Live mode calls the provider's live address, which may not be this server: another one that answers.
    const liveProvider = createServer((_request, response) => response.end("{}"));
    await new Promise<void>((resolve) => liveProvider.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => liveProvider.close(() => resolve())));
    vi.stubEnv("PROVIDER_A_LIVE_URL", `http://127.0.0.1:${(liveProvider.address() as AddressInfo).port}`);
    const paid = await paidInvoice({ live: true });
    const { dispute } = await opened(paid);
    expect(dispute.attributes.test_mode).toBe(false);
    const { key: test } = await createApiKey(t.db, { merchantId: paid.m.merchantId, name: "test", mode: "test" });
    expect((await read(paid.m, dispute.id, test)).status).toBe(404);
    expect((await read(paid.m, dispute.id)).status).toBe(200);
  });
});

describe("the lean path (server.ts's /api/commerce/*)", () => {
  it("reads an upload up to its own limit, while every other route keeps the 64 KiB cap", async () => {
    const m = await invoiceMerchant(t.db);
    const server = createServer((req, res) => {
      void serveCommerce(req, res, new URL(req.url ?? "/", "http://localhost").pathname, "http://localhost");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const form = (size: number) => {
      const data = new FormData();
      data.set("purpose", "dispute_evidence");
      data.set("file", pdf(Buffer.concat([PDF, Buffer.alloc(size - PDF.length)])), "big.pdf");
      return data;
    };
    const headers = { authorization: `Bearer ${m.key}` };
    const big = await fetch(`${origin}/api/commerce/files`, { method: "POST", headers, body: form(4 * 1024 * 1024) });
    expect(big.status).toBe(201);
    const stored = (await big.json()) as { data: { id: string; attributes: { size: number } } };
    expect(stored.data.attributes.size).toBe(4 * 1024 * 1024);
    const over = await fetch(`${origin}/api/commerce/files`, { method: "POST", headers, body: form(5 * 1024 * 1024 + 1) });
    expect(over.status).toBe(413);
    // Far past the upload's limit: refused before the handler, without reading it all.
    const huge = await fetch(`${origin}/api/commerce/files`, { method: "POST", headers, body: form(7 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    const json = await fetch(`${origin}/api/commerce/disputes/dp_x/evidence`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/vnd.api+json" },
      body: JSON.stringify({ data: { type: "dispute-evidence", attributes: { explanation: "x".repeat(70_000) } } }),
    });
    expect(json.status).toBe(413);
  });
});

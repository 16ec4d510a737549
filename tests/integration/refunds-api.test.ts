import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { GET as LIST_REFUNDS, POST as REFUND } from "@/app/api/commerce/payment-invoices/[id]/refunds/route";
import { GET as GET_REFUND } from "@/app/api/commerce/refunds/[id]/route";
import { createApiKey } from "@/lib/api-keys/queries";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { webhookEvents } from "@/lib/db/schema";
import { refundDocumentSchema, refundListDocumentSchema } from "@/lib/invoices/contract/resource-schemas";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { getStatusHistory } from "@/lib/invoices/status";
import { readInvoice } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import { payWithCard } from "@/lib/processing/engine";
import { createRefund } from "@/lib/refunds/create-refund";
import { listRefunds } from "@/lib/refunds/store";
import { requeueRefundFollowUps } from "@/lib/refunds/tasks/refund-reconcile";
import { asc, eq } from "drizzle-orm";
import { setUpTestDb } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, invoiceMerchant, newReference, remove, disable, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { errorsOf, send } from "./helpers/send";
import { runAllJobs } from "./helpers/jobs";

/**
 * Refunds over the API against a fake provider whose answers each test scripts: amounts and their
 * refusals, idempotency, the invoice's statuses, concurrency, unknown outcomes and follow-ups.
 * tests/integration/refunds-sandboxes.test.ts runs the same API through the six real sandboxes.
 */
const t = setUpTestDb();
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };
const fake = setUpFakeProvider({ replace: ["provider-a"] });
beforeEach(() => {
  fake.reset();
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

type Refund = { id: string; attributes: Record<string, unknown>; relationships: Record<string, { data: { id: string } }>; links: { self: string } };
type Invoice = { id: string; attributes: Record<string, unknown>; relationships: Record<string, unknown> };

async function paidInvoice(options: { m?: InvoiceMerchant; amount?: string; testMode?: boolean; pay?: boolean } = {}) {
  const m = options.m ?? (await invoiceMerchant(t.db, { mode: options.testMode === false ? "live" : "test" }));
  if (!options.m) await connect(t.db, m.merchantId, "provider-a", "h2h", { mode: options.testMode === false ? "live" : "test" });
  const body = templateEnvelope(findTemplate("a-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.amount = options.amount ?? "100.00";
  body.data.attributes.test_mode = options.testMode ?? true;
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  if (options.pay !== false) {
    const paid = await payWithCard(t.db, created.invoice.id, CARD);
    if (paid.kind === "refused" || paid.invoice.status !== "processed")
      throw new Error(`setup: not paid ${JSON.stringify(paid, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`);
  }
  return { m, invoiceId: created.invoice.id };
}

const refundBody = (attributes: Record<string, unknown>) => ({ data: { type: "refund", attributes: { reference_id: newReference(), ...attributes } } });
const refund = (m: InvoiceMerchant, invoiceId: string, attributes: Record<string, unknown> = {}, key = m.key) =>
  send<Refund, { id: string }>(
    REFUND,
    { id: invoiceId },
    { method: "POST", path: `/api/commerce/payment-invoices/${invoiceId}/refunds`, key, body: refundBody(attributes) },
  );
const invoiceOf = (m: InvoiceMerchant, id: string) =>
  send<Invoice, { id: string }>(GET_PAYMENT, { id }, { path: `/api/commerce/payment-invoices/${id}`, key: m.key });

describe("refunds over the API", () => {
  it("a partial then the rest: refunded_amount and the status follow, every step is in the history, and the list and the read agree", async () => {
    const { m, invoiceId } = await paidInvoice();
    const first = await refund(m, invoiceId, { amount: "30.00", reason: "One item returned" });
    expect(first.status).toBe(201);
    expect(refundDocumentSchema.safeParse(first.json).error).toBeUndefined();
    expect(first.headers.get("location")).toBe(first.json.data.links.self);
    expect(first.json.data.attributes).toMatchObject({
      status: "succeeded",
      resolution: "ok",
      amount: "30.00",
      currency: "UAH",
      reason: "One item returned",
      test_mode: true,
    });
    expect((await invoiceOf(m, invoiceId)).json.data.attributes).toMatchObject({
      status: "partially_refunded",
      refunded_amount: "30.00",
      processed_amount: "100.00",
    });

    // amount left out: the whole rest.
    const rest = await refund(m, invoiceId);
    expect(rest.json.data.attributes).toMatchObject({ status: "succeeded", amount: "70.00" });
    const invoice = (await invoiceOf(m, invoiceId)).json.data;
    expect(invoice.attributes).toMatchObject({ status: "refunded", resolution: "ok", refunded_amount: "100.00" });
    expect(invoice.relationships.refunds).toEqual({
      links: { related: expect.stringMatching(new RegExp(`/api/commerce/payment-invoices/${invoiceId}/refunds$`)) },
    });

    const list = await send<Refund[], { id: string }>(
      LIST_REFUNDS,
      { id: invoiceId },
      { path: `/api/commerce/payment-invoices/${invoiceId}/refunds`, key: m.key },
    );
    expect(refundListDocumentSchema.safeParse(list.json).error).toBeUndefined();
    expect(list.json.data.map((r) => r.id)).toEqual([first.json.data.id, rest.json.data.id]);
    const read = await send<Refund, { id: string }>(GET_REFUND, { id: rest.json.data.id }, { path: `/api/commerce/refunds/${rest.json.data.id}`, key: m.key });
    expect(read.json.data).toEqual(rest.json.data);

    const history = (await getStatusHistory(t.db, invoiceId)).map((entry) => entry.toStatus);
    expect(history.slice(-4)).toEqual(["refunding", "partially_refunded", "refunding", "refunded"]);
    // One provider call per refund, each with the refund's id as the idempotency key, to the connection that took the payment.
    const calls = fake.calls.filter((call) => call.op === "refund");
    expect(calls.map((call) => [call.idempotencyKey, call.amountMinor])).toEqual([
      [first.json.data.id, 3000n],
      [rest.json.data.id, 7000n],
    ]);
    // Nothing is left: a further refund is refused before anything is sent.
    const after = await refund(m, invoiceId, { amount: "0.01" });
    expect(after.status).toBe(409);
    expect(errorsOf(after)).toEqual([["(none)", "not_processed"]]);
  });

  it("refuses with a pointer and a plain sentence, storing and sending nothing", async () => {
    const { m, invoiceId } = await paidInvoice();
    for (const [attributes, pointer, code] of [
      [{ amount: "100.01" }, "/data/attributes/amount", "exceeds_refundable"],
      [{ amount: "0" }, "/data/attributes/amount", "invalid_amount"],
      [{ amount: -5 }, "/data/attributes/amount", "out_of_range"],
      [{ amount: "1.005" }, "/data/attributes/amount", "invalid_amount"],
      [{ amount: "ten" }, "/data/attributes/amount", "invalid_amount"],
      [{ test_mode: false }, "/data/attributes/test_mode", "mode_mismatch"],
      [{ reference_id: "" }, "/data/attributes/reference_id", "too_short"],
      [{ color: "red" }, "/data/attributes/color", "unknown_attribute"],
    ] as const) {
      const answer = await refund(m, invoiceId, attributes);
      expect(answer.status, JSON.stringify(attributes)).toBe(422);
      expect(errorsOf(answer)).toEqual([[pointer, code]]);
      expect(answer.json.errors[0]!.detail.length).toBeGreaterThan(10);
    }
    const wrongType = await send(
      REFUND,
      { id: invoiceId },
      {
        method: "POST",
        path: `/api/commerce/payment-invoices/${invoiceId}/refunds`,
        key: m.key,
        body: { data: { type: "payment-invoice", attributes: { reference_id: "x" } } },
      },
    );
    expect(errorsOf(wrongType)).toEqual([["/data/type", "invalid_value"]]);
    expect(await listRefunds(t.db, invoiceId)).toEqual([]);
    expect(fake.calls.filter((call) => call.op === "refund")).toEqual([]);
  });

  it("409 for a payment that was never processed; 404 for another merchant's invoice, refund or an unknown id", async () => {
    const { m, invoiceId: unpaid } = await paidInvoice({ pay: false });
    const answer = await refund(m, unpaid, { amount: "1.00" });
    expect(answer.status).toBe(409);
    expect(errorsOf(answer)).toEqual([["(none)", "not_processed"]]);
    expect(answer.json.errors[0]!.detail).toContain("created");

    const { m: owner, invoiceId } = await paidInvoice();
    const mine = await refund(owner, invoiceId, { amount: "5.00" });
    const other = await invoiceMerchant(t.db);
    expect((await refund(other, invoiceId, { amount: "1.00" })).status).toBe(404);
    expect((await send(LIST_REFUNDS, { id: invoiceId }, { path: `/api/commerce/payment-invoices/${invoiceId}/refunds`, key: other.key })).status).toBe(404);
    expect((await send(GET_REFUND, { id: mine.json.data.id }, { path: `/api/commerce/refunds/${mine.json.data.id}`, key: other.key })).status).toBe(404);
    for (const id of ["rf_unknown", "cpi_unknown", "not an id"]) {
      expect((await send(GET_REFUND, { id }, { path: `/api/commerce/refunds/${encodeURIComponent(id)}`, key: owner.key })).status).toBe(404);
    }
    expect((await refund(owner, "cpoi_payout", { amount: "1.00" })).status).toBe(404);
    expect((await send(GET_REFUND, { id: mine.json.data.id }, { path: `/api/commerce/refunds/${mine.json.data.id}`, key: null })).status).toBe(401);
  });

  it("reference_id makes a retry safe: the same body answers the first refund with 200, another body is 409", async () => {
    const { m, invoiceId } = await paidInvoice();
    const body = refundBody({ amount: "10.00" });
    const call = (b: unknown) =>
      send<Refund, { id: string }>(
        REFUND,
        { id: invoiceId },
        { method: "POST", path: `/api/commerce/payment-invoices/${invoiceId}/refunds`, key: m.key, body: b },
      );
    const first = await call(body);
    const again = await call(body);
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.json.data.id).toBe(first.json.data.id);
    const changed = await call({ data: { ...body.data, attributes: { ...body.data.attributes, amount: "11.00" } } });
    expect(changed.status).toBe(409);
    expect(errorsOf(changed)).toEqual([["/data/attributes/reference_id", "reference_reused"]]);
    expect(fake.calls.filter((c) => c.op === "refund")).toHaveLength(1);
  });

  it("a declined refund fails and the invoice goes back to processed; the payment stays refundable", async () => {
    const { m, invoiceId } = await paidInvoice();
    fake.refundScript.push({ kind: "declined", providerReference: "r-1", message: "The issuer refused the refund." });
    const declined = await refund(m, invoiceId, { amount: "20.00" });
    expect(declined.status).toBe(201);
    expect(declined.json.data.attributes).toMatchObject({ status: "failed", resolution: "general_error", message: "The issuer refused the refund." });
    expect((await invoiceOf(m, invoiceId)).json.data.attributes).toMatchObject({ status: "processed", refunded_amount: "0.00" });
    expect((await refund(m, invoiceId)).json.data.attributes).toMatchObject({ status: "succeeded", amount: "100.00" });
  });

  it("an unknown outcome is asked about, never resent: pending until a status request settles it", async () => {
    const { m, invoiceId } = await paidInvoice();
    fake.refundScript.push({ kind: "unknown", message: "timed out" });
    fake.refundStatusScript.push({ kind: "unknown", message: "still no answer" });
    const answer = await refund(m, invoiceId, { amount: "40.00" });
    expect(answer.json.data.attributes).toMatchObject({ status: "pending", resolution: null });
    expect((await invoiceOf(m, invoiceId)).json.data.attributes).toMatchObject({ status: "refunding", refunded_amount: "0.00" });
    // The rest counts the open refund: 60.00 is all that may still be asked for.
    expect(errorsOf(await refund(m, invoiceId, { amount: "60.01" }))).toEqual([["/data/attributes/amount", "exceeds_refundable"]]);

    await runAllJobs(t.db, { name: "refund-reconcile", invoiceId });
    const [settled] = await listRefunds(t.db, invoiceId);
    expect(settled).toMatchObject({ status: "succeeded", outcomeUnknown: false });
    expect(fake.calls.filter((c) => c.op === "refund")).toHaveLength(1);
    expect(fake.calls.filter((c) => c.op === "refund-status").length).toBeGreaterThanOrEqual(2);
    expect((await invoiceOf(m, invoiceId)).json.data.attributes).toMatchObject({ status: "partially_refunded", refunded_amount: "40.00" });
  });

  it("a refund sent without an answer that the provider then says it never received is sent again with the same id, never failed", async () => {
    const { m, invoiceId } = await paidInvoice();
    fake.refundScript.push({ kind: "unknown", message: "timed out" });
    fake.refundStatusScript.push({ kind: "unknown", message: "no answer" }, { kind: "refused", resolution: "provider_unavailable", message: "never arrived" });
    const answer = await refund(m, invoiceId, { amount: "15.00" });
    expect(answer.json.data.attributes).toMatchObject({ status: "pending" });
    await runAllJobs(t.db, { name: "refund-reconcile", invoiceId });
    const [settled] = await listRefunds(t.db, invoiceId);
    expect(settled).toMatchObject({ status: "succeeded" });
    const sends = fake.calls.filter((c) => c.op === "refund");
    expect(sends.map((c) => c.idempotencyKey)).toEqual([answer.json.data.id, answer.json.data.id]);
  });

  it("a refund the provider took as pending stays open when a status request finds nothing, and is not sent again", async () => {
    const { m, invoiceId } = await paidInvoice();
    fake.refundScript.push({ kind: "pending", providerReference: "r-pending" });
    fake.refundStatusScript.push(
      { kind: "refused", resolution: "provider_unavailable", message: "never arrived" },
      { kind: "succeeded", providerReference: "r-pending" },
    );
    const answer = await refund(m, invoiceId, { amount: "15.00" });
    expect(answer.json.data.attributes).toMatchObject({ status: "pending", provider_reference: "r-pending" });
    await runAllJobs(t.db, { name: "refund-reconcile", invoiceId });
    expect((await listRefunds(t.db, invoiceId))[0]).toMatchObject({ status: "succeeded", providerReference: "r-pending" });
    expect(fake.calls.filter((c) => c.op === "refund")).toHaveLength(1);
  });

  it("two senders of one stored refund (the create request and the crash sweep) call the provider once", async () => {
    const { m, invoiceId } = await paidInvoice();
    const stored = await createRefundWithoutSending(m, invoiceId, "20.00");
    fake.delayMs = 50;
    // The sweep's status request finds nothing yet, so it would send: the claim lets only one of them.
    fake.refundStatusScript.push({ kind: "refused", resolution: "provider_unavailable", message: "never arrived" });
    const send = await import("@/lib/refunds/send");
    await Promise.all([send.sendRefund(t.db, stored.id), send.followUpRefund(t.db, stored.id, "sweep")]);
    expect(fake.calls.filter((c) => c.op === "refund").map((c) => c.idempotencyKey)).toEqual([stored.id]);
    await runAllJobs(t.db, { name: "refund-reconcile", invoiceId });
    expect((await listRefunds(t.db, invoiceId))[0]).toMatchObject({ status: "succeeded" });
  });

  it("50 simultaneous partial refunds of random amounts never give back more than was paid", async () => {
    const { m, invoiceId } = await paidInvoice({ amount: "100.00" });
    fake.delayMs = 5;
    const amounts = Array.from({ length: 50 }, () => (Math.floor(Math.random() * 900) + 100) / 100);
    const answers = await Promise.all(amounts.map((amount) => refund(m, invoiceId, { amount: amount.toFixed(2) })));
    for (const answer of answers) expect([201, 409, 422]).toContain(answer.status);
    const stored = await listRefunds(t.db, invoiceId);
    const total = stored.filter((row) => row.status === "succeeded").reduce((sum, row) => sum + row.amountMinor, 0n);
    expect(total).toBeLessThanOrEqual(10_000n);
    expect(stored.length).toBe(answers.filter((a) => a.status === 201).length);
    const sent = fake.calls.filter((c) => c.op === "refund");
    expect(sent.reduce((sum, call) => sum + (call.amountMinor ?? 0n), 0n)).toBe(total);
    expect(new Set(sent.map((c) => c.idempotencyKey)).size).toBe(sent.length);
    const invoice = await readInvoice(t.db, invoiceId);
    expect(invoice!.refundedAmountMinor).toBe(total);
  });

  it("reference_id is per mode: a test refund reusing a live refund's reference is created (201) and the live one is untouched; replays stay within their mode", async () => {
    // Live mode calls the provider's live address, which may not be this server: another one that answers.
    const liveProvider = createServer((_request, response) => response.end("{}"));
    await new Promise<void>((resolve) => liveProvider.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => liveProvider.close(() => resolve())));
    vi.stubEnv("PROVIDER_A_LIVE_URL", `http://127.0.0.1:${(liveProvider.address() as AddressInfo).port}`);
    const live = await paidInvoice({ testMode: false });
    await connect(t.db, live.m.merchantId, "provider-a", "h2h", { mode: "test" });
    const test = await paidInvoice({ m: live.m, testMode: true });
    const keys = { live: live.m.key, test: (await createApiKey(t.db, { merchantId: live.m.merchantId, name: "test", mode: "test" })).key };
    const body = refundBody({ amount: "10.00" });
    const call = (invoiceId: string, key: string, sent: unknown = body) =>
      send<Refund, { id: string }>(REFUND, { id: invoiceId }, { method: "POST", path: `/api/commerce/payment-invoices/${invoiceId}/refunds`, key, body: sent });
    const seen = (row: { id: string; referenceId: string; amount: string; testMode: boolean; invoiceId: string }) => [
      row.id,
      row.referenceId,
      row.amount,
      row.testMode,
      row.invoiceId,
    ];

    const liveRefund = await call(live.invoiceId, keys.live);
    expect([liveRefund.status, liveRefund.json.data.attributes.test_mode]).toEqual([201, false]);
    const liveRows = (await listRefunds(t.db, live.invoiceId)).map(seen);

    const testRefund = await call(test.invoiceId, keys.test);
    expect([testRefund.status, testRefund.json.data?.attributes.test_mode, testRefund.json.data?.attributes.reference_id]).toEqual([
      201,
      true,
      body.data.attributes.reference_id,
    ]);
    expect(testRefund.json.data.id).not.toBe(liveRefund.json.data.id);
    expect((await listRefunds(t.db, live.invoiceId)).map(seen)).toEqual(liveRows);

    // The same body again answers each mode's first refund; another body in a mode is still a conflict.
    const [liveAgain, testAgain] = [await call(live.invoiceId, keys.live), await call(test.invoiceId, keys.test)];
    expect([liveAgain.status, liveAgain.json.data.id, testAgain.status, testAgain.json.data.id]).toEqual([
      200,
      liveRefund.json.data.id,
      200,
      testRefund.json.data.id,
    ]);
    const changed = await call(test.invoiceId, keys.test, { data: { ...body.data, attributes: { ...body.data.attributes, amount: "11.00" } } });
    expect([changed.status, errorsOf(changed)]).toEqual([409, [["/data/attributes/reference_id", "reference_reused"]]]);
    expect((await listRefunds(t.db, test.invoiceId)).map((row) => row.id)).toEqual([testRefund.json.data.id]);
  });

  it("a support member's credential refunds test invoices only; a live refund goes through an owner's key", async () => {
    // Live mode calls the provider's live address, which may not be this server: another one that answers.
    const liveProvider = createServer((_request, response) => response.end("{}"));
    await new Promise<void>((resolve) => liveProvider.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => liveProvider.close(() => resolve())));
    vi.stubEnv("PROVIDER_A_LIVE_URL", `http://127.0.0.1:${(liveProvider.address() as AddressInfo).port}`);
    const live = await paidInvoice({ testMode: false });
    const refused = await createRefund(t.db, {
      merchantId: live.m.merchantId,
      invoiceId: live.invoiceId,
      body: refundBody({}),
      testOnly: true,
      createdBy: "support",
    });
    expect(refused).toEqual({ kind: "test_only" });
    await connect(t.db, live.m.merchantId, "provider-a", "h2h", { mode: "test" });
    const test = await paidInvoice({ m: live.m, testMode: true });
    expect(
      await createRefund(t.db, { merchantId: live.m.merchantId, invoiceId: test.invoiceId, body: refundBody({}), testOnly: true, createdBy: "support" }),
    ).toMatchObject({
      kind: "created",
      refund: { status: "succeeded" },
    });
    const owner = await refund(live.m, live.invoiceId, { test_mode: false });
    expect(owner.json.data.attributes).toMatchObject({ status: "succeeded", test_mode: false });
  });

  it("a disabled connection still refunds; a deleted one fails the refund with a plain reason and sends nothing", async () => {
    const { m, invoiceId } = await paidInvoice();
    const [connection] = fake.calls.filter((c) => c.op === "payment").map((c) => c.connectionId);
    await disable(t.db, m.merchantId, connection!);
    expect((await refund(m, invoiceId, { amount: "1.00" })).json.data.attributes).toMatchObject({ status: "succeeded" });
    await remove(t.db, m.merchantId, connection!);
    const gone = await refund(m, invoiceId, { amount: "1.00" });
    expect(gone.json.data.attributes).toMatchObject({ status: "failed", resolution: "provider_unavailable", message: expect.stringContaining("deleted") });
    expect(fake.calls.filter((c) => c.op === "refund")).toHaveLength(1);
  });

  it("refund.created, then refund.succeeded, are recorded for the webhook with the refund and its invoice", async () => {
    const { m, invoiceId } = await paidInvoice();
    const answer = await refund(m, invoiceId, { amount: "12.00" });
    const events = await t.db.select().from(webhookEvents).where(eq(webhookEvents.invoiceId, invoiceId)).orderBy(asc(webhookEvents.createdAt));
    const refundEvents = events.filter((event) => event.type.startsWith("refund."));
    expect(refundEvents.map((event) => event.type)).toEqual(["refund.created", "refund.succeeded"]);
    expect(refundEvents[1]!.refund).toMatchObject({ id: answer.json.data.id, status: "succeeded", amount: "12.00" });
    expect(refundEvents[1]!.invoice).toMatchObject({ status: "partially_refunded", refundedAmountMinor: "1200" });
  });

  it("a refund cut off before its provider call (a crash) is asked about and then sent, once", async () => {
    const { m, invoiceId } = await paidInvoice();
    // The server stopped between storing the refund and sending it.
    fake.refundStatusScript.push({ kind: "refused", resolution: "provider_unavailable", message: "never arrived" });
    const stored = await createRefundWithoutSending(m, invoiceId, "25.00");
    expect(stored.status).toBe("created");
    expect(await requeueRefundFollowUps(t.db, { merchantId: m.merchantId, graceSeconds: 0 })).toBe(1);
    await runAllJobs(t.db, { name: "refund-reconcile", invoiceId });
    expect((await listRefunds(t.db, invoiceId))[0]).toMatchObject({ status: "succeeded" });
    expect(fake.calls.filter((c) => c.op === "refund")).toHaveLength(1);
    expect((await invoiceOf(m, invoiceId)).json.data.attributes).toMatchObject({ refunded_amount: "25.00" });
  });
});

/** The refund as createRefund stores it, with the provider call made to fail before it leaves (a crash). */
async function createRefundWithoutSending(m: InvoiceMerchant, invoiceId: string, amount: string) {
  const send = await import("@/lib/refunds/send");
  const spy = vi.spyOn(send, "sendRefund").mockImplementation(async (_db, id) => (await listRefunds(t.db, invoiceId)).find((row) => row.id === id)!);
  const result = await createRefund(t.db, { merchantId: m.merchantId, invoiceId, body: refundBody({ amount }), testOnly: false, createdBy: "test" });
  spy.mockRestore();
  if (result.kind !== "created") throw new Error(JSON.stringify(result));
  return result.refund;
}

import { and, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import * as paymentRoute from "@/app/api/commerce/payment-invoices/route";
import * as payoutRoute from "@/app/api/commerce/payout-invoices/route";
import { checkStatusNowAction } from "@/lib/actions/check-status";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/vault/vault-key";
import { invoiceAttempts, invoices, webhookEvents } from "@/lib/db/schema";
import { changeInvoiceStatus, getStatusHistory } from "@/lib/invoices/status";
import { getBoss, jobsSchema } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import { findHostedInvoice } from "@/lib/pay/hosted-invoice";
import { applyAttemptOutcome } from "@/lib/processing/apply-outcome";
import { listAttempts, startAttempt } from "@/lib/processing/attempts";
import { invoiceReconcileTask, requeueReconciliation } from "@/lib/processing/tasks/invoice-reconcile";
import { recoverInterruptedRequests } from "@/lib/processing/recover";
import { readInvoiceSchedule } from "@/lib/processing/invoice-page-schedule";
import { saveRoutingOrder } from "@/lib/routing/orders";
import { setUpTestDb } from "./helpers/db";
import { payOnHostedPage } from "./helpers/hosted-page";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { listScheduledJobs, makeJobsDue, runAllJobs, runJobs } from "./helpers/jobs";
import { send } from "./helpers/send";

/**
 * An attempt whose outcome is pending or unknown gets status
 * requests on a schedule (10 s, 30 s, 2 min, 10 min, then hourly) until the invoice is final or its
 * lifetime ends; a provider that never answers ends in process_error / unable_to_reconcile, never
 * in a second charge. Through the real entry points: the create routes, the hosted page's pay
 * action, the jobs (run as the workers would), "Check status now"; against the fake provider, whose
 * answers each test scripts.
 */
const t = setUpTestDb();
const fake = setUpFakeProvider({ replace: ["provider-a"], providerZ: true });

const CARD = { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "737", holder: "Heidi Muster" };
const UNKNOWN = { kind: "unknown", message: "timed out" } as const;
const PENDING = { kind: "pending", providerReference: "z-3ds", redirectUrl: "https://provider.example/3ds/z-3ds" } as const;
const SOFT = { kind: "soft_failed", resolution: "provider_unavailable", message: "down" } as const;

beforeEach(() => {
  fake.reset();
  session.userId = undefined;
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Created = { data: { id: string; attributes: Record<string, unknown> } };

async function merchantWithZ(): Promise<{ m: TeamMerchant; connectionId: string }> {
  const m = await teamMerchant(t.db);
  const connection = await connect(t.db, m.merchantId, "provider-z", "h2h", { vaultKey: credentialsKey() });
  return { m, connectionId: connection.id };
}

/** A hosted-page payment invoice created through POST /api/commerce/payment-invoices. */
async function createPayment(m: TeamMerchant, attributes: Record<string, unknown> = {}): Promise<string> {
  const body = templateEnvelope(findTemplate("z-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.options = {};
  Object.assign(body.data.attributes, attributes);
  const answer = await send<Created["data"]>(paymentRoute.POST, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body });
  expect(answer.status).toBe(201);
  return answer.json.data.id;
}

const invoiceRow = async (id: string) => (await t.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const paymentCalls = () => fake.calls.filter((call) => call.op !== "status");
const statusCalls = () => fake.calls.filter((call) => call.op === "status");
const reconcileJobs = async (invoiceId: string) => (await listScheduledJobs(t.db, invoiceId)).filter((job) => job.name === "invoice-reconcile");

/** Time passes: the invoice's lifetime is over (as if its expires_at had been reached). */
async function passLifetime(invoiceId: string) {
  await t.db
    .update(invoices)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(invoices.id, invoiceId));
}

/** The attempt started longer ago than a 3-D Secure session lasts (THREE_DS_SESSION_SECONDS). */
async function passThreeDsSession(invoiceId: string) {
  await t.db
    .update(invoiceAttempts)
    .set({ startedAt: sql`now() - interval '16 minutes'` })
    .where(eq(invoiceAttempts.invoiceId, invoiceId));
}

/** "Pay" on the hosted page; the answer without its HTTP status and ok flag. */
async function pay(invoiceId: string) {
  const { status, ok, ...answer } = await payOnHostedPage(invoiceId, CARD);
  if (!ok) throw new Error(`pay refused (${status}): ${String(answer.message)}`);
  delete answer.html;
  return answer;
}

describe("a status request finalises a waiting attempt", () => {
  it("settles an unknown outcome at the first scheduled request, 10 s after the attempt, without a second charge", async () => {
    const { m, connectionId } = await merchantWithZ();
    const id = await createPayment(m);
    fake.script.set(connectionId, [UNKNOWN]);
    fake.statusScript.push(UNKNOWN); // the request's own immediate status request learns nothing either
    const answer = await pay(id);
    expect(answer).toMatchObject({ kind: "result", invoice: { outcome: { kind: "in_progress" } } });
    expect(await invoiceRow(id)).toMatchObject({ status: "process_error", resolution: null });

    const [job] = await reconcileJobs(id);
    const [attempt] = await listAttempts(t.db, id);
    expect(job).toMatchObject({ data: { invoiceId: id, attemptId: attempt!.id, step: 0 } });
    const delay = (job!.startAfter.getTime() - attempt!.startedAt.getTime()) / 1000;
    expect(delay).toBeGreaterThanOrEqual(9);
    expect(delay).toBeLessThanOrEqual(11);
    // Not due yet: nothing runs before its time.
    expect(await runJobs(t.db, ["invoice-reconcile"])).toBe(0);

    fake.statusScript.push({ kind: "succeeded", providerReference: "z-1", processedAmountMinor: 4250n });
    await makeJobsDue(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(await runJobs(t.db, ["invoice-reconcile"])).toBe(1);
    expect(await invoiceRow(id)).toMatchObject({ status: "processed", resolution: "ok", processedAmountMinor: 4250n });
    expect(await listAttempts(t.db, id)).toMatchObject([{ status: "succeeded", providerReference: "z-1" }]);
    expect(paymentCalls()).toHaveLength(1);
    expect(await reconcileJobs(id)).toEqual([]);
    expect((await getStatusHistory(t.db, id)).at(-1)).toMatchObject({
      fromStatus: "process_error",
      toStatus: "processed",
      reason: "status request 1 (scheduled)",
    });
    // The hosted page shows the result.
    expect((await findHostedInvoice(t.db, id))?.outcome).toEqual({ kind: "paid" });
  });

  it("keeps asking on the schedule while the provider says pending, and settles when it answers", async () => {
    const { m, connectionId } = await merchantWithZ();
    const id = await createPayment(m);
    fake.script.set(connectionId, [PENDING]);
    expect(await pay(id)).toEqual({ kind: "redirect", url: PENDING.redirectUrl });
    fake.statusScript.push(PENDING, PENDING);
    for (const step of [0, 1]) {
      const [job] = await reconcileJobs(id);
      expect(job?.data.step).toBe(step);
      await makeJobsDue(t.db, { invoiceId: id, name: "invoice-reconcile" });
      await runJobs(t.db, ["invoice-reconcile"]);
      expect(await invoiceRow(id)).toMatchObject({ status: "process_pending" });
    }
    const [third] = await reconcileJobs(id);
    const [attempt] = await listAttempts(t.db, id);
    // The third request is due 2 minutes after the attempt.
    expect(Math.round((third!.startAfter.getTime() - attempt!.startedAt.getTime()) / 1000)).toBe(120);
    fake.statusScript.push({ kind: "declined", resolution: "auth_3ds_failed", message: "3-D Secure failed" });
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(await invoiceRow(id)).toMatchObject({ status: "process_failed", resolution: "auth_3ds_failed" });
    expect(statusCalls()).toHaveLength(3);
    expect(paymentCalls()).toHaveLength(1);
    // A card payment is not retried without the card: the customer may try again on the hosted page.
    expect(await findHostedInvoice(t.db, id)).toMatchObject({ canPay: true, outcome: { kind: "declined" } });
  });
});

describe("a provider that never answers", () => {
  it("ends in process_error with unable_to_reconcile after the lifetime, with history and event, and never charges again", async () => {
    const { m, connectionId } = await merchantWithZ();
    const id = await createPayment(m, { lifetime: 3600 });
    fake.script.set(connectionId, [UNKNOWN]);
    fake.statusScript.push(...Array.from({ length: 10 }, () => UNKNOWN));
    await pay(id);
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" }, 3);
    // Still within the lifetime: still asking, still process_error without a resolution.
    expect(await invoiceRow(id)).toMatchObject({ status: "process_error", resolution: null });
    expect(await reconcileJobs(id)).toHaveLength(1);
    const asked = statusCalls().length;
    expect(asked).toBeGreaterThanOrEqual(4);

    // The customer cannot pay again meanwhile: the outcome is unknown, so a second charge could double it.
    const again = await payOnHostedPage(id, CARD);
    expect(again).toMatchObject({ ok: true, kind: "result", invoice: { canPay: false, outcome: { kind: "in_progress" } } });

    await passLifetime(id);
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(await invoiceRow(id)).toMatchObject({ status: "process_error", resolution: "unable_to_reconcile" });
    expect((await getStatusHistory(t.db, id)).at(-1)).toMatchObject({
      fromStatus: "process_error",
      toStatus: "process_error",
      resolution: "unable_to_reconcile",
    });
    const events = await t.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.invoiceId, id), eq(webhookEvents.type, "invoice.status_changed")));
    expect(events.map((event) => [event.invoice?.status, event.invoice?.resolution])).toContainEqual(["process_error", "unable_to_reconcile"]);
    // Reconciliation stops: nothing more is queued, and a stray job changes nothing.
    expect(await reconcileJobs(id)).toEqual([]);
    const [attempt] = await listAttempts(t.db, id);
    await invoiceReconcileTask.handler(t.db, { invoiceId: id, attemptId: attempt!.id, step: 9 }, { id: "x", name: "invoice-reconcile", retryCount: 0 });
    expect(statusCalls()).toHaveLength(asked + 1);
    expect(paymentCalls()).toHaveLength(1);
    expect(await listAttempts(t.db, id)).toHaveLength(1);
    expect((await payOnHostedPage(id, CARD)).ok).toBe(true);
    expect(paymentCalls()).toHaveLength(1);
  });

  it("expires a payment whose customer abandoned 3-D Secure (the provider keeps saying pending) when the lifetime and the 3-D Secure session are over", async () => {
    const { m, connectionId } = await merchantWithZ();
    const id = await createPayment(m);
    fake.script.set(connectionId, [PENDING]);
    await pay(id);
    fake.statusScript.push(PENDING, PENDING);
    await passLifetime(id);
    await passThreeDsSession(id);
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(await invoiceRow(id)).toMatchObject({ status: "expired", resolution: "expired" });
    expect(statusCalls()).toHaveLength(1);
    expect(await findHostedInvoice(t.db, id)).toMatchObject({ canPay: false, outcome: { kind: "closed", expired: true } });
  });
});

describe("a customer still at 3-D Secure when the lifetime ends", () => {
  it("is not given up while the 3-D Secure session lasts, and a success after expiry moves the invoice to processed, never lost", async () => {
    const { m, connectionId } = await merchantWithZ();
    const id = await createPayment(m);
    fake.script.set(connectionId, [PENDING]);
    await pay(id);
    fake.statusScript.push(PENDING);
    await passLifetime(id);
    await makeJobsDue(t.db, { invoiceId: id, name: "invoice-reconcile" });
    await runJobs(t.db, ["invoice-reconcile"]);
    // Within the session: still waiting, the next status request queued.
    expect(await invoiceRow(id)).toMatchObject({ status: "process_pending" });
    expect(await reconcileJobs(id)).toHaveLength(1);

    await passThreeDsSession(id);
    fake.statusScript.push(PENDING);
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(await invoiceRow(id)).toMatchObject({ status: "expired", resolution: "expired" });

    // The customer finished 3-D Secure after all: the provider's success is applied, not hidden.
    const [attempt] = await listAttempts(t.db, id);
    expect(attempt!.status).toBe("pending");
    const late = await applyAttemptOutcome(t.db, {
      invoiceId: id,
      attemptId: attempt!.id,
      outcome: { kind: "succeeded", providerReference: "z-late", processedAmountMinor: 4250n },
      reason: "provider callback",
    });
    expect(late.kind).toBe("applied");
    expect(await invoiceRow(id)).toMatchObject({ status: "processed", resolution: "ok", processedAmountMinor: 4250n });
    expect((await getStatusHistory(t.db, id)).at(-1)).toMatchObject({
      fromStatus: "expired",
      toStatus: "processed",
      reason: "provider callback: success after the invoice expired",
    });
    // A decline after expiry changes nothing: the invoice stays as it is.
    const other = await createPayment(m);
    fake.script.set(connectionId, [PENDING]);
    await pay(other);
    await passLifetime(other);
    await passThreeDsSession(other);
    fake.statusScript.push(PENDING);
    await runAllJobs(t.db, { invoiceId: other, name: "invoice-reconcile" });
    const [otherAttempt] = await listAttempts(t.db, other);
    const declined = await applyAttemptOutcome(t.db, {
      invoiceId: other,
      attemptId: otherAttempt!.id,
      outcome: { kind: "declined", resolution: "auth_3ds_failed", message: "late" },
      reason: "provider callback",
    });
    expect(declined).toMatchObject({ kind: "superseded" });
    expect(await invoiceRow(other)).toMatchObject({ status: "expired" });
  });
});

describe("later answers that race", () => {
  it("an unknown outcome that turns out pending becomes process_pending, then settles", async () => {
    const { m, connectionId } = await merchantWithZ();
    const id = await createPayment(m);
    fake.script.set(connectionId, [UNKNOWN]);
    fake.statusScript.push(UNKNOWN);
    await pay(id);
    expect(await invoiceRow(id)).toMatchObject({ status: "process_error" });
    fake.statusScript.push(PENDING);
    await makeJobsDue(t.db, { invoiceId: id, name: "invoice-reconcile" });
    await runJobs(t.db, ["invoice-reconcile"]);
    expect(await invoiceRow(id)).toMatchObject({ status: "process_pending" });
    expect(await listAttempts(t.db, id)).toMatchObject([{ status: "pending" }]);
    fake.statusScript.push({ kind: "succeeded", providerReference: "z-5", processedAmountMinor: 4250n });
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(await invoiceRow(id)).toMatchObject({ status: "processed", resolution: "ok" });
  });

  it("of two answers arriving together, exactly one settles the attempt and the invoice agrees with it", async () => {
    const { m, connectionId } = await merchantWithZ();
    const id = await createPayment(m);
    fake.script.set(connectionId, [PENDING]);
    await pay(id);
    const [attempt] = await listAttempts(t.db, id);
    const results = await Promise.all([
      applyAttemptOutcome(t.db, {
        invoiceId: id,
        attemptId: attempt!.id,
        outcome: { kind: "succeeded", providerReference: "z-6", processedAmountMinor: 4250n },
        reason: "provider callback",
      }),
      applyAttemptOutcome(t.db, {
        invoiceId: id,
        attemptId: attempt!.id,
        outcome: { kind: "declined", resolution: "issuer_decline", message: "declined" },
        reason: "status request",
      }),
    ]);
    expect(results.filter((result) => result.kind === "applied")).toHaveLength(1);
    const [settled] = await listAttempts(t.db, id);
    const invoice = await invoiceRow(id);
    expect([settled!.status, invoice.status]).toEqual(settled!.status === "succeeded" ? ["succeeded", "processed"] : ["declined", "process_failed"]);
    expect((await getStatusHistory(t.db, id)).filter((entry) => entry.fromStatus === "process_pending")).toHaveLength(1);
  });

  it("a callback while the attempt's own request still waits for the provider is not applied", async () => {
    const { m } = await merchantWithZ();
    const id = await createPayment(m);
    const invoice = await invoiceRow(id);
    const taken = await changeInvoiceStatus(t.db, invoice, "processing", undefined, { reason: "payment request" });
    const attempt = await startAttempt(t.db, { invoiceId: id, seq: 1, connectionId: taken.connectionId!, reason: "routing_order" });
    const early = await applyAttemptOutcome(t.db, {
      invoiceId: id,
      attemptId: attempt.id,
      outcome: { kind: "succeeded", providerReference: "z-7", processedAmountMinor: 4250n },
      reason: "provider callback",
    });
    expect(early).toMatchObject({ kind: "in_flight" });
    expect(await invoiceRow(id)).toMatchObject({ status: "processing" });
    expect(await listAttempts(t.db, id)).toMatchObject([{ status: "in_flight" }]);
  });
});

describe("a request the server died in the middle of", () => {
  async function interrupted(withAttempt: boolean) {
    const { m } = await merchantWithZ();
    const id = await createPayment(m);
    const taken = await changeInvoiceStatus(t.db, await invoiceRow(id), "processing", undefined, { reason: "payment request" });
    if (withAttempt) await startAttempt(t.db, { invoiceId: id, seq: 1, connectionId: taken.connectionId!, reason: "routing_order" });
    // …and then nothing: the process was killed. Time passes.
    await t.db
      .update(invoices)
      .set({ updatedAt: sql`now() - interval '11 minutes'` })
      .where(eq(invoices.id, id));
    return { m, id };
  }

  it("an attempt left in flight becomes unknown and reconciliation settles it; nothing is charged again", async () => {
    const { m, id } = await interrupted(true);
    expect(await recoverInterruptedRequests(t.db, { merchantId: m.merchantId })).toBe(1);
    expect(await invoiceRow(id)).toMatchObject({ status: "process_error", resolution: null });
    expect(await listAttempts(t.db, id)).toMatchObject([{ status: "unknown" }]);
    expect(await reconcileJobs(id)).toHaveLength(1);
    fake.statusScript.push({ kind: "succeeded", providerReference: "z-8", processedAmountMinor: 4250n });
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(await invoiceRow(id)).toMatchObject({ status: "processed", resolution: "ok" });
    expect(paymentCalls()).toHaveLength(0);
    // Recent requests are left to finish: a second sweep finds nothing.
    expect(await recoverInterruptedRequests(t.db, { merchantId: m.merchantId })).toBe(0);
  });

  it("without any attempt nothing was sent: the invoice fails with attempts left and can be paid again", async () => {
    const { m, id } = await interrupted(false);
    expect(await recoverInterruptedRequests(t.db, { merchantId: m.merchantId })).toBe(1);
    expect(await invoiceRow(id)).toMatchObject({ status: "process_failed", resolution: "general_error", attemptsCount: 0 });
    expect(await pay(id)).toMatchObject({ kind: "result", invoice: { outcome: { kind: "paid" } } });
  });
});

describe("idempotent jobs", () => {
  it("a status request job that runs twice, or for an attempt the invoice has left, changes nothing", async () => {
    const { m, connectionId } = await merchantWithZ();
    const id = await createPayment(m);
    fake.script.set(connectionId, [UNKNOWN]);
    fake.statusScript.push(UNKNOWN, { kind: "succeeded", providerReference: "z-2", processedAmountMinor: 4250n });
    await pay(id);
    const [attempt] = await listAttempts(t.db, id);
    const job = { id: "manual", name: "invoice-reconcile" as const, retryCount: 0 };
    await invoiceReconcileTask.handler(t.db, { invoiceId: id, attemptId: attempt!.id, step: 0 }, job);
    const history = await getStatusHistory(t.db, id);
    const calls = fake.calls.length;
    await invoiceReconcileTask.handler(t.db, { invoiceId: id, attemptId: attempt!.id, step: 0 }, job);
    await invoiceReconcileTask.handler(t.db, { invoiceId: id, attemptId: "att_not_this_invoices", step: 0 }, job);
    expect(await getStatusHistory(t.db, id)).toEqual(history);
    expect(fake.calls).toHaveLength(calls);
    expect(await invoiceRow(id)).toMatchObject({ status: "processed" });
  });

  it("a late callback for the attempt after it settled is superseded, and queues nothing", async () => {
    const { m, connectionId } = await merchantWithZ();
    const id = await createPayment(m);
    fake.script.set(connectionId, [PENDING]);
    await pay(id);
    const [attempt] = await listAttempts(t.db, id);
    const applied = await applyAttemptOutcome(t.db, {
      invoiceId: id,
      attemptId: attempt!.id,
      outcome: { kind: "succeeded", providerReference: "z-3", processedAmountMinor: 4250n },
      reason: "provider callback",
    });
    expect(applied.kind).toBe("applied");
    const late = await applyAttemptOutcome(t.db, {
      invoiceId: id,
      attemptId: attempt!.id,
      outcome: { kind: "declined", resolution: "issuer_decline", message: "late" },
      reason: "provider callback",
    });
    expect(late).toMatchObject({ kind: "superseded" });
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(await invoiceRow(id)).toMatchObject({ status: "processed", resolution: "ok" });
    expect(statusCalls()).toHaveLength(0);
  });
});

describe("payout cascade as a job", () => {
  async function payoutMerchant() {
    const m = await teamMerchant(t.db);
    const ids = [];
    for (let index = 0; index < 2; index += 1) ids.push((await connect(t.db, m.merchantId, "provider-a", "h2h")).id);
    await saveRoutingOrder(t.db, { merchantId: m.merchantId, actor: { label: "test" } }, { service: "payment_card_uah", mode: "test", connectionIds: ids });
    return { m, ids };
  }

  it("a status request that settles the payout's attempt as a soft failure queues the next connection's attempt, with the masked card", async () => {
    const { m, ids } = await payoutMerchant();
    const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.options = { auto_process: true, attempts_limit: 3 };
    fake.script.set(ids[0]!, [UNKNOWN]);
    fake.statusScript.push(UNKNOWN, SOFT);
    const created = await send<Created["data"]>(payoutRoute.POST, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body });
    expect(created.status).toBe(201);
    const id = created.json.data.id;
    expect(created.json.data.attributes).toMatchObject({ status: "process_error", attempts: 1 });

    await makeJobsDue(t.db, { invoiceId: id, name: "invoice-reconcile" });
    await runJobs(t.db, ["invoice-reconcile"]);
    expect(await invoiceRow(id)).toMatchObject({ status: "process_failed", resolution: "provider_unavailable" });
    const [cascade] = (await listScheduledJobs(t.db, id)).filter((job) => job.name === "payout-process");
    const [first] = await listAttempts(t.db, id);
    expect(cascade?.data).toEqual({ invoiceId: id, afterAttemptId: first!.id });

    await runJobs(t.db, ["payout-process"]);
    expect(await invoiceRow(id)).toMatchObject({ status: "processed", resolution: "ok", attemptsCount: 2, connectionId: ids[1], routingReason: "cascaded" });
    expect((await listAttempts(t.db, id)).map((attempt) => [attempt.connectionId, attempt.status, attempt.reason])).toEqual([
      [ids[0], "soft_failed", "routing_order"],
      [ids[1], "succeeded", "cascaded"],
    ]);
    const payouts = fake.calls.filter((call) => call.op === "payout");
    expect(payouts.map((call) => call.connectionId)).toEqual([ids[0], ids[1]]);
    // The job ran with the stored mask: the full number never reached a job or this second request.
    expect(fake.received.at(-1)).toContain("******");

    // Running the cascade job again changes nothing.
    await enqueueAgainAndRun(id, first!.id);
    expect(fake.calls.filter((call) => call.op === "payout")).toHaveLength(2);
  });

  it("does not cascade a soft failure of the last connection", async () => {
    const { m, ids } = await payoutMerchant();
    const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.options = { auto_process: true };
    fake.script.set(ids[0]!, [SOFT]);
    fake.script.set(ids[1]!, [UNKNOWN]);
    fake.statusScript.push(UNKNOWN, SOFT);
    const created = await send<Created["data"]>(payoutRoute.POST, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body });
    const id = created.json.data.id;
    expect(created.json.data.attributes).toMatchObject({ status: "process_error", attempts: 2 });
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(await invoiceRow(id)).toMatchObject({ status: "process_failed", resolution: "provider_unavailable" });
    expect((await listScheduledJobs(t.db, id)).filter((job) => job.name === "payout-process")).toEqual([]);
  });

  async function enqueueAgainAndRun(invoiceId: string, afterAttemptId: string) {
    const boss = await getBoss(t.db);
    await boss.send("payout-process", { invoiceId, afterAttemptId });
    await runJobs(t.db, ["payout-process"]);
  }
});

describe("the sweep", () => {
  it("re-queues a status request for a waiting invoice whose job was lost", async () => {
    const { m, connectionId } = await merchantWithZ();
    const id = await createPayment(m);
    fake.script.set(connectionId, [UNKNOWN]);
    fake.statusScript.push(UNKNOWN);
    await pay(id);
    const boss = await getBoss(t.db);
    // The job is lost (a crash before it was stored, or an operator deleted it).
    await boss.getDb().executeSql(`delete from ${jobsSchema()}.job where name = 'invoice-reconcile' and data->>'invoiceId' = $1`, [id]);
    expect(await reconcileJobs(id)).toEqual([]);
    expect(await requeueReconciliation(t.db, { merchantId: m.merchantId, graceSeconds: 0 })).toBe(1);
    expect(await reconcileJobs(id)).toHaveLength(1);
    // A second sweep finds the job queued and adds nothing.
    expect(await requeueReconciliation(t.db, { merchantId: m.merchantId, graceSeconds: 0 })).toBe(0);
    fake.statusScript.push({ kind: "succeeded", providerReference: "z-4", processedAmountMinor: 4250n });
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(await invoiceRow(id)).toMatchObject({ status: "processed" });
  });
});

describe("Check status now", () => {
  it("lets owners and support members ask at once about their own invoice's open attempt, and says when nothing is open", async () => {
    const { m, connectionId } = await merchantWithZ();
    const other = await merchantWithZ();
    const id = await createPayment(m);
    fake.script.set(connectionId, [PENDING]);
    await pay(id);

    expect(await checkStatusNowAction({ id })).toMatchObject({ ok: false, message: "Your session has ended. Sign in again." });
    session.userId = other.m.ownerId;
    expect(await checkStatusNowAction({ id })).toMatchObject({ ok: false, message: "This invoice does not exist." });
    expect(await readInvoiceSchedule(t.db, other.m.merchantId, id)).toBeUndefined();
    expect(statusCalls()).toHaveLength(0);

    const schedule = await readInvoiceSchedule(t.db, m.merchantId, id);
    expect(schedule).toMatchObject({
      check: { possible: true, attemptSeq: 1, attemptStatus: "pending" },
      items: expect.arrayContaining([expect.objectContaining({ label: "Status request 1" }), expect.objectContaining({ label: "Expiry check" })]),
    });

    session.userId = m.supportId;
    fake.statusScript.push(PENDING);
    expect(await checkStatusNowAction({ id })).toMatchObject({
      ok: true,
      data: { status: "process_pending", settled: false, message: expect.stringContaining("still waiting") },
    });

    session.userId = m.ownerId;
    fake.statusScript.push({ kind: "succeeded", providerReference: "z-5", processedAmountMinor: 4250n });
    expect(await checkStatusNowAction({ id })).toMatchObject({ ok: true, data: { status: "processed", resolution: "ok", settled: true } });
    expect(await checkStatusNowAction({ id })).toMatchObject({ ok: false, message: "Nothing to ask the provider: the invoice is processed." });
    expect(await readInvoiceSchedule(t.db, m.merchantId, id)).toMatchObject({ check: { possible: false } });
    expect(statusCalls()).toHaveLength(2);
    expect(paymentCalls()).toHaveLength(1);
    // The scheduled request that was still queued finds nothing open.
    await runAllJobs(t.db, { invoiceId: id, name: "invoice-reconcile" });
    expect(statusCalls()).toHaveLength(2);
  });
});

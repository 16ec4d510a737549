import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import * as statusRoute from "@/app/(public)/pay/[id]/status/route";
import * as paymentRoute from "@/app/api/commerce/payment-invoices/route";
import * as payoutRoute from "@/app/api/commerce/payout-invoices/route";
import * as processRoute from "@/app/api/commerce/payout-invoices/[id]/process/route";
import { updateInvoiceLifetimeAction } from "@/lib/actions/settings";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/vault/vault-key";
import { invoices } from "@/lib/db/schema";
import { changeInvoiceStatus, getStatusHistory } from "@/lib/invoices/status";
import { enqueue } from "@/lib/jobs/queue";
import { readInvoiceSchedule } from "@/lib/processing/invoice-page-schedule";
import * as getPaymentRoute from "@/app/api/commerce/payment-invoices/[id]/route";
import { logger } from "@/lib/logger";
import { findHostedInvoice } from "@/lib/pay/hosted-invoice";
import { expireOverdueInvoices, invoiceExpireTask } from "@/lib/processing/tasks/invoice-expire";
import { setUpTestDb } from "./helpers/db";
import { payOnHostedPage } from "./helpers/hosted-page";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";
import { listScheduledJobs, runJobs } from "./helpers/jobs";
import { errorsOf, send } from "./helpers/send";

/**
 * Unpaid invoices expire after their lifetime (default 30 minutes, the
 * merchant's Invoice lifetime setting, or the invoice's own `lifetime` attribute in seconds) and
 * become expired; the hosted page then says so and takes no card. Through the create routes, the
 * expiry sweep (run as the workers would), the API read, the hosted page and its pay action.
 */
const t = setUpTestDb();
const fake = setUpFakeProvider({ replace: ["provider-a"], providerZ: true });

const CARD = { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "737", holder: "Heidi Muster" };
const JOB = { id: "manual", name: "invoice-expire" as const, retryCount: 0 };

beforeEach(() => {
  fake.reset();
  session.userId = undefined;
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

type Resource = { id: string; attributes: Record<string, unknown> };

async function merchant(): Promise<{ m: TeamMerchant; connectionId: string }> {
  const m = await teamMerchant(t.db);
  const connection = await connect(t.db, m.merchantId, "provider-z", "h2h", { vaultKey: credentialsKey() });
  return { m, connectionId: connection.id };
}

function paymentBody(m: TeamMerchant, attributes: Record<string, unknown> = {}) {
  const body = templateEnvelope(findTemplate("z-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown> };
  };
  body.data.attributes.options = {};
  Object.assign(body.data.attributes, attributes);
  return body;
}

async function createPayment(m: TeamMerchant, attributes: Record<string, unknown> = {}) {
  return send<Resource>(paymentRoute.POST, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body: paymentBody(m, attributes) });
}

const invoiceRow = async (id: string) => (await t.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;

/** Time passes: the invoice's expires_at is reached. */
async function passLifetime(invoiceId: string) {
  await t.db
    .update(invoices)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(invoices.id, invoiceId));
}

const seconds = (from: unknown, to: unknown) => (new Date(String(to)).getTime() - new Date(String(from)).getTime()) / 1000;

describe("lifetime at creation", () => {
  it("uses the lifetime attribute, else the merchant's setting (owners change it), else 30 minutes; expires_at is in the resource", async () => {
    const { m } = await merchant();
    const standard = await createPayment(m);
    expect(standard.status).toBe(201);
    expect(standard.json.data.attributes).toMatchObject({ lifetime: 1800 });
    expect(seconds(standard.json.data.attributes.created, standard.json.data.attributes.expires_at)).toBe(1800);

    const own = await createPayment(m, { lifetime: 45 });
    expect(own.json.data.attributes).toMatchObject({ lifetime: 45 });
    expect(seconds(own.json.data.attributes.created, own.json.data.attributes.expires_at)).toBe(45);
    expect((await invoiceRow(own.json.data.id)).expiresAt.toISOString()).toBe(own.json.data.attributes.expires_at);

    session.userId = m.supportId;
    expect(await updateInvoiceLifetimeAction({ lifetimeMinutes: 5 })).toMatchObject({
      ok: false,
      message: "Your role (Support) may not change the business's settings.",
    });
    session.userId = m.ownerId;
    expect(await updateInvoiceLifetimeAction({ lifetimeMinutes: 0 })).toMatchObject({
      ok: false,
      fieldErrors: { lifetimeMinutes: "The lifetime must be at least 1 minute" },
    });
    expect(await updateInvoiceLifetimeAction({ lifetimeMinutes: 43_201 })).toMatchObject({
      ok: false,
      fieldErrors: { lifetimeMinutes: expect.stringContaining("at most 43200 minutes") },
    });
    expect(await updateInvoiceLifetimeAction({ lifetimeMinutes: "15" })).toEqual({ ok: true, data: { lifetimeMinutes: 15, lifetimeSeconds: 900 } });
    const later = await createPayment(m);
    expect(later.json.data.attributes).toMatchObject({ lifetime: 900 });
    // The invoice's own lifetime still wins.
    expect((await createPayment(m, { lifetime: 120 })).json.data.attributes).toMatchObject({ lifetime: 120 });
    // Invoices created before the change keep theirs.
    expect((await invoiceRow(standard.json.data.id)).expiresAt.toISOString()).toBe(standard.json.data.attributes.expires_at);
  });

  it("refuses a lifetime out of bounds or not whole seconds, naming /data/attributes/lifetime", async () => {
    const { m } = await merchant();
    for (const [lifetime, code] of [
      [5, "out_of_range"],
      [2_592_001, "out_of_range"],
      [90.5, "invalid_type"],
      ["600", "invalid_type"],
    ] as const) {
      const answer = await createPayment(m, { lifetime });
      expect(answer.status).toBe(422);
      expect(errorsOf(answer)).toEqual([["/data/attributes/lifetime", code]]);
    }
    const payout = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    payout.data.attributes.lifetime = 0;
    const answer = await send(payoutRoute.POST, {}, { method: "POST", path: "/api/commerce/payout-invoices", key: m.key, body: payout });
    expect(errorsOf(answer)).toEqual([["/data/attributes/lifetime", "out_of_range"]]);
  });

  it("queues no job for it, even for a replayed request: the expiry sweep finds it by expires_at, and the schedule shows when", async () => {
    const { m } = await merchant();
    const body = paymentBody(m, { lifetime: 600 });
    const first = await send<Resource>(paymentRoute.POST, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body });
    const replay = await send<Resource>(paymentRoute.POST, {}, { method: "POST", path: "/api/commerce/payment-invoices", key: m.key, body });
    expect(replay.json.data.id).toBe(first.json.data.id);
    expect(await listScheduledJobs(t.db, first.json.data.id)).toEqual([]);
    const schedule = await readInvoiceSchedule(t.db, m.merchantId, first.json.data.id);
    expect(schedule?.items).toEqual([expect.objectContaining({ label: "Expiry check", runAt: first.json.data.attributes.expires_at })]);
  });

  it("a processed invoice lists no expiry check, and a queued job that would find nothing to do is not shown as scheduled", async () => {
    const { m } = await merchant();
    const id = (await createPayment(m, { lifetime: 600 })).json.data.id;
    // A leftover expire job (as earlier versions queued), still queued for later.
    await enqueue(t.db, "invoice-expire", { invoiceId: id }, { key: id, startAfter: 300 });
    const before = await readInvoiceSchedule(t.db, m.merchantId, id);
    expect(before?.items.map((item) => item.label)).toEqual(["Expiry check", "Expiry check"]);
    const processing = await changeInvoiceStatus(t.db, await invoiceRow(id), "processing");
    await changeInvoiceStatus(t.db, processing, "processed", "ok");
    expect((await listScheduledJobs(t.db, id)).map((job) => job.name)).toContain("invoice-expire");
    const after = await readInvoiceSchedule(t.db, m.merchantId, id);
    expect(after?.items.map((item) => item.label)).toEqual([]);
    expect(before).toMatchObject({ mayExpire: true, status: "created" });
    expect(after).toMatchObject({ mayExpire: false, status: "processed" });
  });

  it("the API's read of an overdue invoice expires it on the spot, before any sweep", async () => {
    const { m } = await merchant();
    const id = (await createPayment(m, { lifetime: 600 })).json.data.id;
    // Ten minutes pass (both times move, so the invoice's lifetime stays what it was).
    await t.db
      .update(invoices)
      .set({ createdAt: sql`now() - interval '601 seconds'`, expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invoices.id, id));
    const read = await send<Resource, { id: string }>(getPaymentRoute.GET, { id }, { path: `/api/commerce/payment-invoices/${id}`, key: m.key });
    expect(read.status).toBe(200);
    expect(read.json.data.attributes).toMatchObject({ status: "expired", resolution: "expired" });
    expect((await getStatusHistory(t.db, id)).at(-1)).toMatchObject({ fromStatus: "created", toStatus: "expired", reason: "lifetime ended (read)" });
    const again = await send<Resource, { id: string }>(getPaymentRoute.GET, { id }, { path: `/api/commerce/payment-invoices/${id}`, key: m.key });
    expect(again.json.data.attributes).toMatchObject({ status: "expired" });
    expect(await getStatusHistory(t.db, id)).toHaveLength(2);
  });
});

describe("an expire job queued by an earlier version", () => {
  it("still expires a created invoice at its expires_at, once; before then, or run again, it changes nothing", async () => {
    const { m } = await merchant();
    const id = (await createPayment(m, { lifetime: 600 })).json.data.id;
    // A job such as earlier versions queued at creation, run early: the invoice is still within its lifetime.
    await enqueue(t.db, "invoice-expire", { invoiceId: id }, { key: id });
    expect(await runJobs(t.db, ["invoice-expire"])).toBe(1);
    expect(await invoiceRow(id)).toMatchObject({ status: "created" });

    await passLifetime(id);
    await invoiceExpireTask.handler(t.db, { invoiceId: id }, JOB);
    expect(await invoiceRow(id)).toMatchObject({ status: "expired", resolution: "expired" });
    const history = await getStatusHistory(t.db, id);
    expect(history.at(-1)).toMatchObject({ fromStatus: "created", toStatus: "expired", resolution: "expired", reason: "lifetime ended" });
    await invoiceExpireTask.handler(t.db, { invoiceId: id }, JOB);
    expect(await getStatusHistory(t.db, id)).toEqual(history);

    // The API shows it; the payout's process endpoint and the hosted page refuse to charge.
    expect((await findHostedInvoice(t.db, id))?.canPay).toBe(false);
  });
});

describe("the expiry sweep", () => {
  it("leaves a paid invoice alone", async () => {
    const { m } = await merchant();
    const id = (await createPayment(m, { lifetime: 600 })).json.data.id;
    expect(await payOnHostedPage(id, CARD)).toMatchObject({ ok: true, kind: "result", invoice: { outcome: { kind: "paid" } } });
    await passLifetime(id);
    await expireOverdueInvoices(t.db, { merchantId: m.merchantId });
    expect(await invoiceRow(id)).toMatchObject({ status: "processed", resolution: "ok" });
  });

  it("expires a declined payment with attempts left, which the customer never retried", async () => {
    const { m, connectionId } = await merchant();
    const id = (await createPayment(m)).json.data.id;
    fake.script.set(connectionId, [{ kind: "declined", resolution: "issuer_decline", message: "declined" }]);
    await payOnHostedPage(id, CARD);
    expect(await invoiceRow(id)).toMatchObject({ status: "process_failed" });
    await passLifetime(id);
    await expireOverdueInvoices(t.db, { merchantId: m.merchantId });
    expect(await invoiceRow(id)).toMatchObject({ status: "expired", resolution: "expired" });
  });

  it("refuses to send an overdue payout through the process endpoint, and expires it", async () => {
    const { m } = await merchant();
    await connect(t.db, m.merchantId, "provider-a", "h2h");
    const body = templateEnvelope(findTemplate("a-payout")!, { commerceAccount: m.account, referenceId: newReference() }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.options = { auto_process: false };
    body.data.attributes.lifetime = 60;
    const created = await send<Resource>(payoutRoute.POST, {}, { method: "POST", path: `/api/commerce/payout-invoices`, key: m.key, body });
    const id = created.json.data.id;
    await passLifetime(id);
    const answer = await send(processRoute.POST, { id }, { method: "POST", path: `/api/commerce/payout-invoices/${id}/process`, key: m.key });
    expect(answer.status).toBe(409);
    expect(errorsOf(answer)).toEqual([["", "invoice_expired"]]);
    expect(fake.calls).toEqual([]);
    expect(await expireOverdueInvoices(t.db, { merchantId: m.merchantId })).toBe(1);
    expect(await invoiceRow(id)).toMatchObject({ status: "expired", resolution: "expired" });
  });
});

describe("the hosted page of an overdue invoice", () => {
  it("shows it expired at once, before the job ran, and Pay is refused with a clear message; no provider is called", async () => {
    const { m } = await merchant();
    const id = (await createPayment(m, { lifetime: 600 })).json.data.id;
    expect(await findHostedInvoice(t.db, id)).toMatchObject({ canPay: true, outcome: { kind: "open" } });
    await passLifetime(id);
    const page = await findHostedInvoice(t.db, id);
    expect(page).toMatchObject({ canPay: false, final: true, outcome: { kind: "closed", reason: "This payment link has expired.", expired: true } });
    expect(await invoiceRow(id)).toMatchObject({ status: "expired", resolution: "expired" });
    expect((await getStatusHistory(t.db, id)).at(-1)).toMatchObject({ toStatus: "expired", reason: "lifetime ended (hosted page)" });

    expect(await payOnHostedPage(id, CARD)).toMatchObject({
      ok: true,
      kind: "result",
      refused: expect.stringContaining("This payment link has expired"),
      invoice: { canPay: false },
    });
    expect(fake.calls).toEqual([]);
  });

  it("refuses Pay on an invoice whose lifetime ended while the page was open", async () => {
    const { m } = await merchant();
    const id = (await createPayment(m, { lifetime: 600 })).json.data.id;
    await passLifetime(id);
    // Nothing expired it yet (no job, no page load since): Pay itself finds it overdue and refuses.
    expect(await invoiceRow(id)).toMatchObject({ status: "created" });
    const answer = await payOnHostedPage(id, CARD);
    expect(answer).toMatchObject({ ok: true, refused: expect.stringContaining("expired"), invoice: { outcome: { kind: "closed", expired: true } } });
    expect(fake.calls).toEqual([]);
  });

  it("answers the page's poll with the public view only", async () => {
    const { m } = await merchant();
    const id = (await createPayment(m)).json.data.id;
    const answer = await send<unknown, { id: string }>(statusRoute.GET, { id }, { path: `/pay/${id}/status` });
    expect(answer.status).toBe(200);
    expect(Object.keys((answer.json as unknown as { invoice: object }).invoice).sort()).toEqual(
      ["amount", "canPay", "currency", "description", "expiresAt", "final", "id", "merchantName", "outcome", "returnUrl", "takesCvc", "testMode"].sort(),
    );
    expect(answer.text).not.toContain("Heidi");
    expect((await send(statusRoute.GET, { id: "cpi_doesnotexist_000000" }, { path: "/pay/x/status" })).status).toBe(404);
  });
});

describe("which invoices the sweep expires", () => {
  it("expires overdue unpaid invoices, and nothing else", async () => {
    const { m } = await merchant();
    const overdue = (await createPayment(m, { lifetime: 600 })).json.data.id;
    const fresh = (await createPayment(m, { lifetime: 600 })).json.data.id;
    const paid = (await createPayment(m, { lifetime: 600 })).json.data.id;
    await payOnHostedPage(paid, CARD);
    await passLifetime(overdue);
    await passLifetime(paid);
    expect(await expireOverdueInvoices(t.db, { merchantId: m.merchantId })).toBe(1);
    expect(await invoiceRow(overdue)).toMatchObject({ status: "expired", resolution: "expired" });
    expect(await invoiceRow(fresh)).toMatchObject({ status: "created" });
    expect(await invoiceRow(paid)).toMatchObject({ status: "processed" });
    expect(await expireOverdueInvoices(t.db, { merchantId: m.merchantId })).toBe(0);
  });
});

import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null), signIn: async () => undefined }));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { updateAlertRuleAction } from "@/lib/actions/alerts";
import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { countOpenAlerts, listOpenAlerts, listResolvedAlerts } from "@/lib/alerts/read";
import { readAlertRules } from "@/lib/alerts/settings";
import { authenticateApiKey, createApiKey, revokeApiKey, rollApiKey } from "@/lib/api-keys/queries";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { alerts, auditLog, connections, invoiceAttempts, mailOutbox, routingStats, users, webhookEvents } from "@/lib/db/schema";
import { applyDisputeReport } from "@/lib/disputes/apply-report";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { logger } from "@/lib/logger";
import { backgroundMailSettled } from "@/lib/mail";
import { payWithCard } from "@/lib/processing/engine";
import type { DisputeReport } from "@/lib/providers/kit/adapter";
import { renderEventBody } from "@/lib/webhooks/body";
import { sendTestEvent } from "@/lib/webhooks/deliver";
import { createEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { setUpTestDb } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, newReference, teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";

/**
 * Alerts through the evaluation the workers' sweep runs: each rule fires once when its fact turns
 * bad and resolves once when it clears, even with two evaluations at once on one database (on
 * PostgreSQL they truly race: the open-alert index and the compare-and-set decide), each firing and
 * resolving is one signed `alert.*` event and one e-mail per owner; owners change the rules
 * (audited), a rule turned off resolves its alerts; one merchant never sees another's.
 */
const t = setUpTestDb();
const fake = setUpFakeProvider({ replace: ["provider-a"] });
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };
const DAY = 24 * 60 * 60_000;

beforeEach(() => {
  fake.reset();
  for (const level of ["info", "warn"] as const) vi.spyOn(logger, level).mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  session.userId = undefined;
});

/** A receiver that answers 200 to every delivery. */
let receiverUrl = "";
const receiver = createServer((_request, response) => response.writeHead(200).end("ok"));
beforeAll(async () => {
  await new Promise<void>((done) => receiver.listen(0, "127.0.0.1", done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  vi.stubEnv("WEBHOOKS_ALLOW_PRIVATE_URLS", "1");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((done) => receiver.close(done));
});

/** Two evaluations at once, as two worker instances would run their sweeps. */
async function evaluateTwiceAtOnce(): Promise<void> {
  await Promise.all([evaluateAlerts(t.db), evaluateAlerts(t.db)]);
}

async function alertsOf(merchantId: string, rule: string) {
  return t.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.merchantId, merchantId), eq(alerts.rule, rule as "success_rate")));
}

async function eventsOf(merchantId: string) {
  return t.db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.merchantId, merchantId), inArray(webhookEvents.type, ["alert.triggered", "alert.resolved"])))
    .orderBy(webhookEvents.createdAt);
}

async function ownerMails(m: TeamMerchant) {
  await backgroundMailSettled();
  const [owner] = await t.db.select().from(users).where(eq(users.id, m.ownerId));
  return (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, owner!.email))).filter((mail) => /Alert: |Resolved: /.test(mail.subject));
}

/** Fired once and resolved once: one alert row, one event and one owner e-mail each way. */
async function expectFiredAndResolvedOnce(m: TeamMerchant, rule: string, clear: () => Promise<void>, title: RegExp) {
  await evaluateTwiceAtOnce();
  await evaluateTwiceAtOnce();
  const fired = await alertsOf(m.merchantId, rule);
  expect(fired).toHaveLength(1);
  expect(fired[0]).toMatchObject({ resolvedAt: null });
  expect(fired[0]!.title).toMatch(title);
  expect((await eventsOf(m.merchantId)).map((e) => e.type)).toEqual(["alert.triggered"]);
  expect((await ownerMails(m)).map((mail) => mail.subject)).toEqual([expect.stringMatching(/Alert: /)]);

  await clear();
  await evaluateTwiceAtOnce();
  await evaluateTwiceAtOnce();
  const after = await alertsOf(m.merchantId, rule);
  expect(after).toHaveLength(1);
  expect(after[0]!.resolvedAt).toBeInstanceOf(Date);
  expect(after[0]!.resolvedDetail).toBeTruthy();
  // One of each (their order is the alert's: resolved after it opened).
  expect((await eventsOf(m.merchantId)).map((e) => e.type).sort()).toEqual(["alert.resolved", "alert.triggered"]);
  const mails = await ownerMails(m);
  expect(mails).toHaveLength(2);
  expect(mails.find((mail) => mail.subject.startsWith("[Test] Resolved: ") || mail.subject.startsWith("Resolved: "))?.text).toContain(
    after[0]!.resolvedDetail!,
  );
}

async function paidPayment(m: TeamMerchant) {
  const connection = await connect(t.db, m.merchantId, "provider-a", "h2h", { mode: "test" });
  const body = templateEnvelope(findTemplate("a-payment")!, { commerceAccount: m.account, referenceId: newReference() }) as {
    data: { attributes: Record<string, unknown>; relationships?: unknown };
  };
  body.data.attributes.amount = "100.00";
  body.data.attributes.test_mode = true;
  body.data.relationships = { connection: { data: { type: "connection", id: connection.id } } };
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  const paymentReference = `pay-${randomBytes(6).toString("hex")}`;
  fake.script.set(connection.id, [{ kind: "succeeded", providerReference: paymentReference, processedAmountMinor: 10000n }]);
  await payWithCard(t.db, created.invoice.id, CARD);
  const [attempt] = await t.db.select().from(invoiceAttempts).where(eq(invoiceAttempts.invoiceId, created.invoice.id));
  return { connection: { ...connection, merchantId: m.merchantId }, paymentReference, attempt: attempt! };
}

function disputeReport(paymentReference: string, overrides: Partial<DisputeReport> = {}): DisputeReport {
  return {
    disputeReference: `dsp-${randomBytes(6).toString("hex")}`,
    paymentReference,
    amountMinor: 4000n,
    currency: "UAH",
    reason: "not_received",
    providerReason: "13.1 Merchandise not received",
    status: "needs_response",
    evidenceDueBy: new Date(Date.now() + 10 * DAY),
    ...overrides,
  };
}

describe("each rule fires once and resolves once, with two evaluations at once", () => {
  it("connection health: a connection turning failing, then healthy again", async () => {
    const m = await teamMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-a", "h2h", { mode: "test" });
    await t.db.update(connections).set({ health: "failing", healthWindow: "FFF" }).where(eq(connections.id, connection.id));
    await expectFiredAndResolvedOnce(
      m,
      "connection_health",
      async () => void (await t.db.update(connections).set({ health: "healthy", healthWindow: "FFFS" }).where(eq(connections.id, connection.id))),
      /is failing/,
    );
    // The alert event is signed and delivered like any other: its body is the alert.
    const triggered = (await eventsOf(m.merchantId)).find((e) => e.type === "alert.triggered");
    const body = JSON.parse(renderEventBody(triggered!));
    expect(body).toMatchObject({
      data: { type: "alert", attributes: { rule: "connection_health", subject: connection.id, mode: "test", state: "open" } },
      meta: { event_type: "alert.triggered" },
    });
  });

  it("success rate: a service's rate below the threshold over the window, then back above it", async () => {
    const m = await teamMerchant(t.db);
    const connection = await connect(t.db, m.merchantId, "provider-a", "h2h", { mode: "test" });
    const service = connection.services[0]!;
    const bucket = (minutesAgo: number) => new Date(Math.floor((Date.now() - minutesAgo * 60_000) / 300_000) * 300_000);
    // 4 of 12 succeeded 10 minutes ago; an old bucket outside the 60-minute window would not count.
    await t.db.insert(routingStats).values([
      { merchantId: m.merchantId, service, connectionId: connection.id, bucket: bucket(10), attempts: 12, successes: 4 },
      { merchantId: m.merchantId, service, connectionId: connection.id, bucket: bucket(300), attempts: 100, successes: 100 },
    ]);
    await expectFiredAndResolvedOnce(
      m,
      "success_rate",
      async () =>
        void (await t.db
          .insert(routingStats)
          .values({ merchantId: m.merchantId, service, connectionId: connection.id, bucket: bucket(0), attempts: 40, successes: 40 })
          .onConflictDoNothing()),
      /success rate below 80 %/,
    );
    const [alert] = await alertsOf(m.merchantId, "success_rate");
    expect(alert).toMatchObject({ subject: `test:${service}`, mode: "test" });
    expect(alert!.detail).toContain("4 of 12 attempts succeeded");
  });

  it("webhook failures: an endpoint's last 5 deliveries failed, then one succeeded", async () => {
    const m = await teamMerchant(t.db);
    const endpoint = await createEndpoint(t.db, m.merchantId, {
      url: "http://127.0.0.1:9/refused",
      description: "",
      enabled: true,
      allEvents: false,
      eventTypes: ["refund.created"],
    });
    if (!endpoint.ok) throw new Error(JSON.stringify(endpoint));
    for (let i = 0; i < 4; i += 1) await sendTestEvent(t.db, m.merchantId, endpoint.value.id);
    await evaluateAlerts(t.db);
    expect(await alertsOf(m.merchantId, "webhook_failures")).toEqual([]); // 4 in a row: not yet
    await sendTestEvent(t.db, m.merchantId, endpoint.value.id);
    await expectFiredAndResolvedOnce(
      m,
      "webhook_failures",
      async () => {
        const moved = await updateEndpoint(t.db, m.merchantId, endpoint.value.id, {
          url: receiverUrl,
          description: "",
          enabled: true,
          allEvents: false,
          eventTypes: ["refund.created"],
        });
        expect(moved?.ok).toBe(true);
        expect((await sendTestEvent(t.db, m.merchantId, endpoint.value.id))?.succeeded).toBe(true);
      },
      /Webhook endpoint http:\/\/127\.0\.0\.1:9\/refused is failing/,
    );
  });

  it("dispute opened: a provider opens a dispute, then it closes", async () => {
    const m = await teamMerchant(t.db);
    const paid = await paidPayment(m);
    const first = disputeReport(paid.paymentReference);
    expect((await applyDisputeReport(t.db, paid.connection, first, "callback")).kind).toBe("created");
    // The deadline rule (3 days by default) stays quiet: the deadline is 10 days away.
    await expectFiredAndResolvedOnce(
      m,
      "dispute_opened",
      async () => void (await applyDisputeReport(t.db, paid.connection, { ...first, status: "lost" }, "callback")),
      /Dispute of 40\.00 UAH opened/,
    );
    expect(await alertsOf(m.merchantId, "dispute_deadline")).toEqual([]);
  });

  it("dispute deadline: an unanswered dispute due within the owner's days, then closed", async () => {
    const m = await teamMerchant(t.db);
    session.userId = m.ownerId;
    // Only the deadline rule here: the opened rule is turned off (and stays quiet).
    expect((await updateAlertRuleAction({ rule: "dispute_opened", enabled: false })).ok).toBe(true);
    expect((await updateAlertRuleAction({ rule: "dispute_deadline", enabled: true, threshold: 12 })).ok).toBe(true);
    const paid = await paidPayment(m);
    const near = disputeReport(paid.paymentReference);
    await applyDisputeReport(t.db, paid.connection, near, "callback");
    await expectFiredAndResolvedOnce(
      m,
      "dispute_deadline",
      async () => void (await applyDisputeReport(t.db, paid.connection, { ...near, status: "won" }, "callback")),
      /evidence due by/,
    );
    expect(await alertsOf(m.merchantId, "dispute_opened")).toEqual([]);
  });

  it("API key used after it was rolled, until it is revoked", async () => {
    const m = await teamMerchant(t.db);
    const old = await createApiKey(t.db, { merchantId: m.merchantId, name: "Shop backend" });
    // Used before the roll: no alert.
    await authenticateApiKey(t.db, old.key);
    await vi.waitFor(async () => expect((await readKey(old.summary.id)).lastUsedAt).toBeInstanceOf(Date));
    const rolled = await rollApiKey(t.db, { merchantId: m.merchantId, id: old.summary.id, grace: "24h" });
    expect(rolled).toBeDefined();
    await evaluateAlerts(t.db);
    expect(await alertsOf(m.merchantId, "api_key_after_roll")).toEqual([]);
    // Used again after the roll (a minute later: last use is written at most once a minute).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * 60_000 });
    try {
      expect(await authenticateApiKey(t.db, old.key)).toBeDefined();
      await vi.waitFor(async () => expect((await readKey(old.summary.id)).lastUsedAt!.getTime()).toBeGreaterThan(rolled!.summary.createdAt.getTime()));
      await expectFiredAndResolvedOnce(
        m,
        "api_key_after_roll",
        async () => void expect(await revokeApiKey(t.db, m.merchantId, old.summary.id)).toBe(true),
        /API key Shop backend used after it was rolled/,
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

async function readKey(id: string) {
  const { apiKeys } = await import("@/lib/db/schema");
  const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row!;
}

describe("rules: defaults, owners' changes (audited), a rule turned off", () => {
  it("every rule starts on with its defaults; an owner's change is audited; turning a rule off resolves its open alerts, saying so", async () => {
    const m = await teamMerchant(t.db);
    expect(await readAlertRules(t.db, m.merchantId)).toEqual([
      { rule: "connection_health", enabled: true, threshold: null, windowMinutes: null },
      { rule: "success_rate", enabled: true, threshold: 80, windowMinutes: 60 },
      { rule: "webhook_failures", enabled: true, threshold: 5, windowMinutes: null },
      { rule: "dispute_opened", enabled: true, threshold: null, windowMinutes: null },
      { rule: "dispute_deadline", enabled: true, threshold: 3, windowMinutes: null },
      { rule: "api_key_after_roll", enabled: true, threshold: null, windowMinutes: null },
    ]);
    const connection = await connect(t.db, m.merchantId, "provider-a", "h2h", { mode: "live" });
    await t.db.update(connections).set({ health: "degraded", healthWindow: "FF" }).where(eq(connections.id, connection.id));
    await evaluateAlerts(t.db);
    expect(await countOpenAlerts(t.db, m.merchantId, "live")).toBe(1);
    // The Test view does not count a live connection's alert.
    expect(await countOpenAlerts(t.db, m.merchantId, "test")).toBe(0);

    session.userId = m.supportId;
    expect(await updateAlertRuleAction({ rule: "connection_health", enabled: false })).toEqual({
      ok: false,
      fieldErrors: {},
      message: "Your role (Support) may not change the alert rules.",
    });
    session.userId = m.ownerId;
    expect(await updateAlertRuleAction({ rule: "success_rate", enabled: true, threshold: 0, windowMinutes: 5 })).toMatchObject({
      ok: false,
      fieldErrors: { threshold: "Enter a whole number from 1 to 100 (%)", windowMinutes: "Enter a whole number from 15 to 1440 (minutes)" },
    });
    expect(await updateAlertRuleAction({ rule: "success_rate", enabled: true, threshold: 95, windowMinutes: 30 })).toMatchObject({ ok: true });
    expect(await updateAlertRuleAction({ rule: "connection_health", enabled: false })).toMatchObject({ ok: true });
    expect((await readAlertRules(t.db, m.merchantId)).slice(0, 2)).toEqual([
      { rule: "connection_health", enabled: false, threshold: null, windowMinutes: null },
      { rule: "success_rate", enabled: true, threshold: 95, windowMinutes: 30 },
    ]);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.merchantId, m.merchantId), eq(auditLog.action, "alert.rule_updated")));
    expect(audit.map((row) => row.summary).sort()).toEqual([
      "Connection health: off",
      "Success rate of a service: on, success rate below 95 %, window 30 minutes",
    ]);

    await evaluateAlerts(t.db);
    expect(await countOpenAlerts(t.db, m.merchantId, "live")).toBe(0);
    const { rows } = await listResolvedAlerts(t.db, m.merchantId, "live");
    expect(rows).toMatchObject([{ rule: "connection_health", resolvedDetail: "The rule was turned off." }]);
  });

  it("one merchant's alerts are not another's", async () => {
    const a = await teamMerchant(t.db);
    const b = await teamMerchant(t.db);
    const connection = await connect(t.db, a.merchantId, "provider-a", "h2h", { mode: "test" });
    await t.db.update(connections).set({ health: "failing", healthWindow: "FFF" }).where(eq(connections.id, connection.id));
    await evaluateAlerts(t.db);
    expect(await listOpenAlerts(t.db, a.merchantId, "test")).toHaveLength(1);
    expect(await listOpenAlerts(t.db, b.merchantId, "test")).toEqual([]);
    expect(await countOpenAlerts(t.db, b.merchantId, "test")).toBe(0);
    expect(await eventsOf(b.merchantId)).toEqual([]);
    // A's alert named as B's history position finds nothing of A's: B's history starts from its newest.
    await t.db.update(connections).set({ health: "healthy" }).where(eq(connections.id, connection.id));
    await evaluateAlerts(t.db);
    const [resolved] = (await listResolvedAlerts(t.db, a.merchantId, "test")).rows;
    expect(resolved?.subject).toBe(connection.id);
    expect(await listResolvedAlerts(t.db, b.merchantId, "test", resolved!.id)).toEqual({ rows: [], next: null });
    // A position that is no alert id (a NUL byte included) is the first page, never an error.
    expect((await listResolvedAlerts(t.db, a.merchantId, "test", "alr_\u0000'")).rows).toHaveLength(1);
  });
});

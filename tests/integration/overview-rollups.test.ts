import { and, asc, eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CONNECTION_HEALTH_CHANGED } from "@/lib/analytics/connection-health";
import { getOverview, readPeriod } from "@/lib/analytics/overview";
import { LATENCY_BUCKETS_MS, rebuildRollups } from "@/lib/analytics/rollups";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { credentialsKey } from "@/lib/vault/vault-key";
import { connections, overviewRollups, webhookEvents } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { logger } from "@/lib/logger";
import { payWithCard } from "@/lib/processing/engine";
import type { ProviderOutcome } from "@/lib/providers/kit/adapter";
import { createRefund } from "@/lib/refunds/create-refund";
import { saveRoutingOrder } from "@/lib/routing/orders";
import { renderEventBody } from "@/lib/webhooks/body";
import { setUpTestDb } from "./helpers/db";
import { setUpFakeProvider } from "./helpers/fake-provider";
import { connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";

/**
 * The overview's rollups kept through the real processing entry points (payWithCard, createRefund),
 * equal to what `rebuild-rollups` computes from the rows, read back by the overview for one
 * merchant only; and connection health with its `connection.health_changed` event.
 */
const t = setUpTestDb();
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "737", holder: "Heidi Muster" };
const SOFT: ProviderOutcome = { kind: "soft_failed", resolution: "provider_unavailable", message: "down" };
const DECLINE: ProviderOutcome = { kind: "declined", resolution: "insufficient_funds", message: "no funds" };
const AMOUNT = 4250n; // z-payment's amount

const fake = setUpFakeProvider({ replace: ["provider-a"], providerZ: true });
beforeEach(() => {
  fake.reset();
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "warn").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

async function twoConnections() {
  const m = await invoiceMerchant(t.db);
  const first = await connect(t.db, m.merchantId, "provider-z", "h2h", { vaultKey: credentialsKey() });
  const second = await connect(t.db, m.merchantId, "provider-z", "h2h", { vaultKey: credentialsKey() });
  const order = [first!.id, second!.id];
  await saveRoutingOrder(t.db, { merchantId: m.merchantId, actor: { label: "test" } }, { service: "payment_card_chf_hpp", mode: "test", connectionIds: order });
  return { m, order };
}

async function pay(m: InvoiceMerchant) {
  const body = templateEnvelope(findTemplate("z-payment")!, { commerceAccount: m.account, referenceId: newReference() });
  const created = await createInvoice(t.db, m.merchant, "payment", body);
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  const result = await payWithCard(t.db, created.invoice.id, CARD);
  if (result.kind === "refused") throw new Error(`refused: ${JSON.stringify(result.problems)}`);
  return result.invoice;
}

async function refund(m: InvoiceMerchant, invoiceId: string, amount: string) {
  const body = { data: { type: "refund", attributes: { reference_id: newReference(), amount } } };
  const created = await createRefund(t.db, { merchantId: m.merchantId, invoiceId, body, testOnly: false, createdBy: "test" });
  if (created.kind !== "created") throw new Error(`setup: ${JSON.stringify(created)}`);
  return created.refund;
}

/** Every rollup row of the merchant, comparable (dates as ISO, bigints as text), in key order. */
async function rollupRows(merchantId: string) {
  const rows = await t.db
    .select()
    .from(overviewRollups)
    .where(eq(overviewRollups.merchantId, merchantId))
    .orderBy(
      asc(overviewRollups.grain),
      asc(overviewRollups.hour),
      asc(overviewRollups.source),
      asc(overviewRollups.connectionId),
      asc(overviewRollups.status),
      asc(overviewRollups.resolution),
      asc(overviewRollups.currency),
      asc(overviewRollups.direction),
    );
  return rows.map((row) => ({
    ...row,
    hour: row.hour.toISOString(),
    amountMinor: row.amountMinor.toString(),
    recoveredAmountMinor: row.recoveredAmountMinor.toString(),
  }));
}

const period = readPeriod({ period: "today" }).period;

describe("overview rollups", () => {
  it("count success, decline, a soft failure recovered by cascading and a refund, exactly as a rebuild does, for this merchant only", async () => {
    const { m, order } = await twoConnections();
    const other = await twoConnections();
    await pay(other.m); // another merchant's processed payment never shows in m's overview

    const paid = await pay(m);
    fake.script.set(order[0]!, [DECLINE]);
    expect((await pay(m)).status).toBe("process_failed");
    fake.script.set(order[0]!, [SOFT]);
    const recovered = await pay(m);
    expect(recovered).toMatchObject({ status: "processed", attemptsCount: 2, connectionId: order[1] });
    await refund(m, paid.id, "10.00");

    const overview = await getOverview(t.db, m.merchantId, "test", period);
    expect(overview.totals).toEqual([
      {
        currency: "CHF",
        payments: { count: 2, minor: 2n * AMOUNT },
        payouts: { count: 0, minor: 0n },
        refunds: { count: 1, minor: 1000n },
        disputes: { count: 0, minor: 0n },
        netMinor: 2n * AMOUNT - 1000n,
        authorized: { count: 0, minor: 0n },
      },
    ]);
    expect(overview).toMatchObject({ processed: 2, failed: 1, recovered: { count: 1, amounts: [{ currency: "CHF", minor: AMOUNT }] } });
    expect(overview.successRate).toBeCloseTo(2 / 3);
    expect(overview.declines).toEqual([
      { resolution: "insufficient_funds", count: 1 },
      { resolution: "provider_unavailable", count: 1 },
    ]);
    const byId = new Map(overview.connections.map((c) => [c.id, c]));
    expect(byId.get(order[0]!)).toMatchObject({ attempts: 3, succeeded: 1, lastError: { resolution: "provider_unavailable", message: "down" } });
    expect(byId.get(order[1]!)).toMatchObject({ attempts: 1, succeeded: 1, rate: 1 });
    // The fake provider answers on 127.0.0.1 within a few ms: p50 and p95 fall in the histogram's low buckets.
    expect(byId.get(order[0]!)!.p95).toBeLessThanOrEqual(1600);
    const trendTotal = overview.trend.reduce((sum, point) => sum + point.processed + point.failed, 0);
    expect(trendTotal).toBe(3);
    expect(overview.trend).toHaveLength(24);

    // The last 7 days read the day rows: the same figures.
    const week = await getOverview(t.db, m.merchantId, "test", readPeriod({ period: "7d" }).period);
    expect(week).toMatchObject({ totals: overview.totals, processed: 2, failed: 1, recovered: overview.recovered, declines: overview.declines });
    expect(week.trend).toHaveLength(7);

    const incremental = await rollupRows(m.merchantId);
    const others = await rollupRows(other.m.merchantId);
    // One merchant's rebuild in batches of two invoices (batch edges), then every merchant's (the
    // command without --merchant) in its default batches: on PostgreSQL the worker's database holds
    // the invoices of every file it ran, which two at a time took over 30 s under CI's load.
    await rebuildRollups(t.db, { merchantId: m.merchantId, batch: 2 });
    expect(await rollupRows(m.merchantId)).toEqual(incremental);
    await rebuildRollups(t.db);
    expect(await rollupRows(m.merchantId)).toEqual(incremental);
    expect(await rollupRows(other.m.merchantId)).toEqual(others);
  });

  it("match a rebuild after random histories through the real entry points", async () => {
    const { m, order } = await twoConnections();
    const outcomes: ProviderOutcome[] = [
      SOFT,
      DECLINE,
      { kind: "declined", resolution: "issuer_decline", message: "no" },
      { kind: "succeeded", providerReference: "r", processedAmountMinor: AMOUNT },
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 14; i++) {
      for (const id of order) fake.script.set(id, [outcomes[Math.floor(random() * outcomes.length)]!]);
      const invoice = await pay(m);
      if (invoice.status === "processed" && random() < 0.5) await refund(m, invoice.id, "5.00");
    }
    const incremental = await rollupRows(m.merchantId);
    expect(incremental.length).toBeGreaterThan(2);
    const rebuilt = await rebuildRollups(t.db, { merchantId: m.merchantId, batch: 3 });
    expect(rebuilt.invoices).toBe(14);
    expect(await rollupRows(m.merchantId)).toEqual(incremental);
  });
});

describe("connection health", () => {
  it("goes degraded then failing on technical failures, not on issuer declines, back to healthy, with a connection.health_changed event each time", async () => {
    const { m, order } = await twoConnections();
    const health = async () => (await t.db.select({ health: connections.health }).from(connections).where(eq(connections.id, order[0]!)))[0]!.health;
    for (let i = 0; i < 4; i++) {
      fake.script.set(order[0]!, [{ kind: "declined", resolution: "issuer_decline", message: "no" }]);
      await pay(m);
    }
    expect(await health()).toBe("healthy");
    fake.script.set(order[0]!, [SOFT]);
    await pay(m);
    fake.script.set(order[0]!, [SOFT]);
    await pay(m);
    expect(await health()).toBe("degraded");
    fake.script.set(order[0]!, [SOFT]);
    await pay(m);
    expect(await health()).toBe("failing");
    for (let i = 0; i < 12; i++) await pay(m);
    expect(await health()).toBe("healthy");

    const events = await t.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.merchantId, m.merchantId), eq(webhookEvents.type, CONNECTION_HEALTH_CHANGED)))
      .orderBy(asc(webhookEvents.createdAt), asc(sql`${webhookEvents.id}`));
    expect(events.map((event) => [event.connection?.previousHealth, event.connection?.health])).toEqual([
      ["healthy", "degraded"],
      ["degraded", "failing"],
      ["failing", "degraded"],
      ["degraded", "healthy"],
    ]);
    const body = JSON.parse(renderEventBody(events[1]!));
    expect(body).toMatchObject({
      data: {
        type: "connection",
        id: order[0],
        attributes: { health: "failing", previous_health: "degraded", last_error: { resolution: "provider_unavailable" } },
      },
      meta: { event_type: CONNECTION_HEALTH_CHANGED },
    });
    expect(JSON.stringify(body)).not.toMatch(/secret|password|private/i);
  });
});

describe("readPeriod", () => {
  const now = new Date("2026-11-29T10:00:00Z");
  it("reads presets and custom dates, and names the field of bad input without throwing", () => {
    expect(readPeriod({}, now).period).toMatchObject({ preset: "7d", fromText: "2026-11-23", toText: "2026-11-29", granularity: "day" });
    expect(readPeriod({ period: "today" }, now).period).toMatchObject({
      granularity: "hour",
      from: new Date("2026-11-29T00:00:00Z"),
      to: new Date("2026-11-30T00:00:00Z"),
    });
    expect(readPeriod({ period: "custom", from: "2026-01-01", to: "2026-01-31" }, now)).toEqual({
      period: expect.objectContaining({ fromText: "2026-01-01", toText: "2026-01-31" }),
    });
    expect(readPeriod({ period: "year" }, now).problem).toMatchObject({ field: "period" });
    expect(readPeriod({ period: "custom", from: "2026-02-30", to: "2026-03-01" }, now).problem).toMatchObject({
      field: "from",
      message: expect.stringContaining("not a date"),
    });
    expect(readPeriod({ period: "custom", from: "2026-03-02", to: "2026-03-01" }, now).problem).toMatchObject({
      field: "from",
      message: expect.stringContaining("after"),
    });
    expect(readPeriod({ period: "custom", from: "2024-01-01", to: "2026-01-01" }, now).problem).toMatchObject({
      field: "to",
      message: expect.stringContaining("at most 366"),
    });
    expect(readPeriod({ period: "custom", from: "2026-01-01" }, now).problem).toMatchObject({ field: "to" });
  });
});

describe("overview days in the viewer's zone", () => {
  const hourRow = (merchantId: string, hour: string, status: string, count: number, grain: "hour" | "day" = "hour") => ({
    merchantId,
    testMode: true,
    grain,
    hour: new Date(hour),
    source: "invoice" as const,
    direction: "payment" as const,
    connectionId: "conn_tz",
    status,
    resolution: "",
    currency: "EUR",
    count,
    amountMinor: 100n * BigInt(count),
    recoveredCount: 0,
    recoveredAmountMinor: 0n,
    latency: LATENCY_BUCKETS_MS.map(() => 0),
  });

  it("cuts days at the zone's midnight, summing the hour rows, and names the zone", async () => {
    const m = await invoiceMerchant(t.db);
    // 17:00 UTC on 28 Nov is 22:30 on 28 Nov in Kolkata; 20:00 UTC is 01:30 on 29 Nov there. In UTC both are 28 Nov.
    await t.db
      .insert(overviewRollups)
      .values([
        hourRow(m.merchantId, "2026-11-28T17:00:00Z", "failed", 1),
        hourRow(m.merchantId, "2026-11-28T20:00:00Z", "processed", 2),
        hourRow(m.merchantId, "2026-11-28T00:00:00Z", "failed", 1, "day"),
        hourRow(m.merchantId, "2026-11-28T00:00:00Z", "processed", 2, "day"),
      ]);
    const now = new Date("2026-11-29T12:00:00Z");
    const read = readPeriod({ period: "7d" }, now, "Asia/Kolkata");
    expect(read.period).toMatchObject({
      fromText: "2026-11-23",
      toText: "2026-11-29",
      from: new Date("2026-11-22T18:30:00Z"),
      to: new Date("2026-11-29T18:30:00Z"),
      label: "Last 7 days (Asia/Kolkata)",
    });
    const days = (await getOverview(t.db, m.merchantId, "test", read.period)).trend.map((p) => [p.at.toISOString(), p.processed, p.failed]);
    expect(days).toHaveLength(7);
    expect(days.slice(-2)).toEqual([
      ["2026-11-27T18:30:00.000Z", 0, 1],
      ["2026-11-28T18:30:00.000Z", 2, 0],
    ]);
    const utc = (await getOverview(t.db, m.merchantId, "test", readPeriod({ period: "7d" }, now).period)).trend.map((p) => [
      p.at.toISOString(),
      p.processed,
      p.failed,
    ]);
    expect(utc.slice(-2)).toEqual([
      ["2026-11-28T00:00:00.000Z", 2, 1],
      ["2026-11-29T00:00:00.000Z", 0, 0],
    ]);
  });

  it("has 25 hours on the day summer time ends, and 23 on the day it starts", () => {
    const autumn = readPeriod({ period: "today" }, new Date("2026-10-25T12:00:00Z"), "Europe/Berlin").period;
    expect(autumn).toMatchObject({ from: new Date("2026-10-24T22:00:00Z"), to: new Date("2026-10-25T23:00:00Z"), label: "Today (Europe/Berlin)" });
    const spring = readPeriod({ period: "custom", from: "2026-03-29", to: "2026-03-29" }, new Date("2026-04-01T12:00:00Z"), "Europe/Berlin").period;
    expect((spring.to.getTime() - spring.from.getTime()) / 3_600_000).toBe(23);
  });
});

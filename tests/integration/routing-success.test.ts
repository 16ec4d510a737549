import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { POST as POST_PAYMENT } from "@/app/api/commerce/payment-invoices/route";
import { GET as GET_PAYMENT } from "@/app/api/commerce/payment-invoices/[id]/route";
import { PATCH as PATCH_ORDER } from "@/app/api/routing/[id]/route";
import { GET as GET_SETTINGS, PATCH as PATCH_SETTINGS } from "@/app/api/routing/settings/route";
import { POST as SIMULATE } from "@/app/api/routing/simulate/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { createApiKey } from "@/lib/api-keys/queries";
import { credentialsKey } from "@/lib/vault/vault-key";
import { auditLog, invoiceAttempts, merchants, routingStats, sandboxRecords } from "@/lib/db/schema";
import type { InvoiceResource } from "@/lib/invoices/contract";
import { PAYMENT_EXAMPLES } from "@/tests/fixtures/invoices";
import { logger } from "@/lib/logger";
import { payWithCard } from "@/lib/processing/engine";
import { pruneRoutingStats, statsClock } from "@/lib/routing/success-stats";
import { setSandboxFault } from "@/lib/sandbox/faults";
import { setUpTestDb } from "./helpers/db";
import { bodyFor, connect, invoiceMerchant, newReference, type InvoiceMerchant } from "./helpers/invoice-fixtures";
import { serveSandboxesAsAppUrl } from "./helpers/sandbox-server";
import { errorsOf, send } from "./helpers/send";

/**
 * Success-rate ordering through the entry points a merchant uses: the settings and the
 * rule saved through the API, invoices created through the invoice API and paid with a card, the
 * sandboxes served over HTTP by the app's own dispatcher so the connection's fault switch applies.
 * Time is the counts' clock (statsClock), moved on between invoices instead of waited for; the
 * exploration draws are Math.random, seeded so the run is the same every time.
 */
const t = setUpTestDb();
const ORDER = "payment_card_eur_hpp:test";
const EUR = PAYMENT_EXAMPLES["B: EUR with customer"];
const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, holder: "Test Holder", cvc: "123" };
const MINUTE = 60_000;

// The sandboxes (where the connections' fault switches apply), and the callback route they call, over HTTP at APP_URL.
serveSandboxesAsAppUrl({ callbacks: true });

let now = Date.UTC(2026, 0, 5, 9, 0, 0);
beforeEach(() => {
  resetRateLimits();
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "warn").mockImplementation(() => {});
  vi.spyOn(statsClock, "now").mockImplementation(() => now);
  // mulberry32: uniform draws, the same sequence every run.
  let state = 2027;
  vi.spyOn(Math, "random").mockImplementation(() => {
    state = (state + 0x6d2b79f5) | 0;
    let r = Math.imul(state ^ (state >>> 15), 1 | state);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await t.db.delete(sandboxRecords).where(eq(sandboxRecords.operation, "fault"));
});

/** The settings hold for both modes, so only a live key changes them: one per merchant. */
const liveKeys = new Map<string, string>();
async function liveKeyOf(m: InvoiceMerchant): Promise<string> {
  if (!liveKeys.has(m.merchantId)) liveKeys.set(m.merchantId, (await createApiKey(t.db, { merchantId: m.merchantId, name: "settings", mode: "live" })).key);
  return liveKeys.get(m.merchantId)!;
}

const settingsPatch = async (m: InvoiceMerchant, attributes: unknown, id?: string) =>
  send<{ attributes: Record<string, number> }>(
    PATCH_SETTINGS,
    {},
    {
      method: "PATCH",
      key: await liveKeyOf(m),
      path: "/api/routing/settings",
      body: { data: { type: "routing-settings", ...(id ? { id } : {}), attributes } },
    },
  );

async function create(m: InvoiceMerchant): Promise<InvoiceResource> {
  const answer = await send<InvoiceResource>(
    POST_PAYMENT,
    {},
    { method: "POST", key: m.key, path: "/api/commerce/payment-invoices", body: bodyFor(EUR, m.account, { reference_id: newReference() }) },
  );
  if (answer.status !== 201) throw new Error(`expected 201, got ${answer.status} ${answer.text}`);
  return answer.json.data;
}

type Routed = {
  first: string;
  explored: string | null;
  tookIt: string;
  tried: string[];
  explanation: string;
  rates: Map<string, { attempts: number; successes: number; trusted: boolean }>;
};

/** One invoice, as a customer makes it: created through the API, paid on the hosted page; what routing said and who took it. */
async function invoice(m: InvoiceMerchant): Promise<Routed> {
  const created = await create(m);
  const paid = await payWithCard(t.db, created.id, CARD);
  if (paid.kind !== "finished" || paid.invoice.status !== "processed") throw new Error(`not processed: ${JSON.stringify(paid)}`);
  const read = (
    await send<InvoiceResource, { id: string }>(GET_PAYMENT, { id: created.id }, { key: m.key, path: `/api/commerce/payment-invoices/${created.id}` })
  ).json.data;
  const routing = read.attributes.routing!;
  const attempts = await t.db
    .select({ connectionId: invoiceAttempts.connectionId, seq: invoiceAttempts.seq })
    .from(invoiceAttempts)
    .where(eq(invoiceAttempts.invoiceId, created.id));
  return {
    first: routing.order[0]!,
    explored: routing.success_rate?.explored ?? null,
    tookIt: read.relationships.connection.data!.id,
    tried: attempts.sort((a, b) => a.seq - b.seq).map((attempt) => attempt.connectionId),
    explanation: routing.explanation,
    rates: new Map((routing.success_rate?.connections ?? []).map((entry) => [entry.id, entry])),
  };
}

describe("success-rate ordering", () => {
  it("moves new invoices away from a connection whose sandbox fails, except exploration, and back once it recovers", async () => {
    const m = await invoiceMerchant(t.db);
    const b = (await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() })).id;
    const f = (await connect(t.db, m.merchantId, "provider-f", "h2h", { vaultKey: credentialsKey() })).id;
    expect((await settingsPatch(m, { window_hours: 1, min_sample: 3, exploration_percent: 20 })).status).toBe(200);
    const rule = { name: "Best first", outcome: { kind: "cascade", connection_ids: [b, f], order_by: "success_rate" } };
    const saved = await send<{ attributes: { rules: unknown[] } }, { id: string }>(
      PATCH_ORDER,
      { id: ORDER },
      {
        method: "PATCH",
        key: m.key,
        path: `/api/routing/${ORDER}`,
        body: { data: { type: "routing-order", attributes: { rules: [rule] } } },
      },
    );
    expect(saved.status).toBe(200);
    expect(saved.json.data.attributes.rules).toEqual([{ ...rule, conditions: {} }]);

    // B's sandbox answers 503 from now on: each attempt on it fails softly and cascades to F.
    await setSandboxFault(t.db, { id: b, provider: "provider-b" }, "server_error");
    const failing: Routed[] = [];
    for (let i = 0; i < 20; i += 1) {
      now += MINUTE;
      failing.push(await invoice(m));
    }
    // Whom the rates put first, as each invoice recorded them: F only once both have the minimum
    // sample and F's rate is higher; until then the listed order (B first). Exploration, about 20%
    // of invoices, puts the other one first.
    const byRate = (routed: Routed) => {
      const [rb, rf] = [routed.rates.get(b)!, routed.rates.get(f)!];
      return rb.trusted && rf.trusted && rf.successes / rf.attempts > rb.successes / rb.attempts ? f : b;
    };
    expect(failing[0]!.explanation).toContain("no connection has 3 attempts yet, so they keep their listed order");
    for (const routed of failing) {
      expect(routed.first).toBe(routed.explored ?? byRate(routed));
      if (routed.explored) expect(routed.explored).not.toBe(byRate(routed));
      expect(routed.tookIt).toBe(f);
      expect(routed.tried).toEqual(routed.first === b ? [b, f] : [f]);
    }
    // B failed its first invoices; from the fifth at the latest, F goes first except by exploration.
    expect(failing.slice(0, 3).filter((routed) => routed.first === b).length).toBeGreaterThan(0);
    const after = failing.slice(4);
    for (const routed of after) expect(routed.first).toBe(routed.explored === b ? b : f);
    const explored = after.filter((routed) => routed.explored !== null).length;
    expect(explored).toBeGreaterThan(0);
    expect(explored).toBeLessThan(after.length / 2);
    const last = failing[failing.length - 1]!;
    expect(last.rates.get(b)).toMatchObject({ successes: 0, trusted: true });
    expect(last.explanation).toMatch(new RegExp(`Ordered by success rate over the last 1 h: .+ 100% of \\d+, .+ 0% of ${last.rates.get(b)!.attempts}\\.`));

    // The outage ends. Exploration keeps sending B a few invoices; they succeed, B's failures
    // leave the 1-hour window, and B (listed first, tied at 100%) takes the traffic again.
    await setSandboxFault(t.db, { id: b, provider: "provider-b" }, "none");
    const recovering: Routed[] = [];
    for (let i = 0; i < 45; i += 1) {
      now += 2 * MINUTE;
      recovering.push(await invoice(m));
    }
    for (const routed of recovering) expect(routed.tried).toEqual([routed.first]);
    const explorationsToB = recovering.filter((routed) => routed.explored === b);
    expect(explorationsToB.length).toBeGreaterThan(0);
    for (const routed of explorationsToB) expect(routed.tookIt).toBe(b);
    const back = recovering.findIndex((routed) => routed.first === b && routed.explored === null);
    expect(back).toBeGreaterThan(0);
    // When B is back first by its rate, the rate is what exploration earned it: trusted, every counted attempt a success.
    const returned = recovering[back]!;
    expect(returned.rates.get(b)).toMatchObject({ trusted: true });
    expect(returned.rates.get(b)!.successes).toBe(returned.rates.get(b)!.attempts);
    expect(returned.rates.get(b)!.attempts).toBeGreaterThanOrEqual(3);
    for (const routed of recovering.slice(back)) expect(routed.first).toBe(routed.explored === f ? f : b);
    expect(recovering.slice(back).filter((routed) => routed.tookIt === b).length).toBeGreaterThan((recovering.length - back) / 2);
  }, 180_000);

  it("reads and saves the settings through the API, refuses bad ones naming the field, audits a change, and the simulator shows the rates", async () => {
    const m = await invoiceMerchant(t.db);
    const b = (await connect(t.db, m.merchantId, "provider-b", "h2h", { vaultKey: credentialsKey() })).id;
    const read = await send<{ attributes: Record<string, number> }>(GET_SETTINGS, {}, { key: m.key, path: "/api/routing/settings" });
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual({
      type: "routing-settings",
      id: "routing-settings",
      attributes: { window_hours: 24, min_sample: 20, exploration_percent: 5 },
    });

    const bad = await settingsPatch(m, { window_hours: 0, min_sample: 2.5, exploration_percent: 21 });
    expect(bad.status).toBe(422);
    expect(
      errorsOf(bad)
        .map(([pointer]) => pointer)
        .sort(),
    ).toEqual(["/data/attributes/exploration_percent", "/data/attributes/min_sample", "/data/attributes/window_hours"]);
    expect(errorsOf(await settingsPatch(m, { window_hours: 24, min_sample: 20 })).map(([pointer]) => pointer)).toEqual([
      "/data/attributes/exploration_percent",
    ]);
    expect((await settingsPatch(m, { window_hours: 24, min_sample: 20, exploration_percent: 5 }, "other")).status).toBe(409);
    expect((await send(GET_SETTINGS, {}, { key: m.key, path: "/api/routing/settings" })).json).toEqual(read.json);

    const saved = await settingsPatch(m, { window_hours: 6, min_sample: 2, exploration_percent: 0 });
    expect(saved.json.data.attributes).toEqual({ window_hours: 6, min_sample: 2, exploration_percent: 0 });
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.merchantId, m.merchantId));
    expect(audit.filter((row) => row.action === "routing.settings_updated")).toEqual([
      expect.objectContaining({
        summary: "Success-rate ordering: window 6 h, minimum sample 2 attempts, exploration 0%",
        changes: ["window_hours", "min_sample", "exploration_percent"],
      }),
    ]);

    for (let i = 0; i < 2; i += 1) {
      now += MINUTE;
      await invoice(m);
    }
    const simulated = await send<{ attributes: Record<string, unknown> }>(
      SIMULATE,
      {},
      {
        method: "POST",
        key: m.key,
        path: "/api/routing/simulate",
        body: {
          data: {
            type: "routing-simulation",
            attributes: {
              service: "payment_card_eur_hpp",
              test_mode: true,
              amount: "10.00",
              rules: [{ name: "Rated", outcome: { kind: "cascade", connection_ids: [b], order_by: "success_rate" } }],
            },
          },
        },
      },
    );
    expect(simulated.status).toBe(200);
    expect(simulated.json.data.attributes).toMatchObject({
      success_rate: {
        window_hours: 6,
        min_sample: 2,
        exploration_percent: 0,
        connections: [{ id: b, attempts: 2, successes: 2, trusted: true }],
        explored: null,
      },
      explanation: expect.stringContaining("Ordered by success rate over the last 6 h:"),
    });

    // Counts older than the longest window (7 days) are deleted by the workers' hourly sweep; newer ones stay.
    const rows = () => t.db.select().from(routingStats).where(eq(routingStats.merchantId, m.merchantId));
    expect(await rows()).toHaveLength(1);
    now += 7 * 24 * 60 * MINUTE;
    await pruneRoutingStats(t.db);
    expect(await rows()).toHaveLength(1);
    now += 2 * 60 * MINUTE;
    await pruneRoutingStats(t.db);
    expect(await rows()).toEqual([]);
  });

  it("answers bad settings with 422 naming the field and stores nothing, whatever is sent; never a 500", async () => {
    const m = await invoiceMerchant(t.db);
    const stored = async () => (await t.db.select().from(merchants).where(eq(merchants.id, m.merchantId)))[0];
    const before = await stored();
    const value = fc.oneof(
      fc.integer({ min: -1000, max: 20_000 }),
      fc.double(),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer()),
      fc.object(),
    );
    const attributes = fc.oneof(
      fc.record({ window_hours: value, min_sample: value, exploration_percent: value }, { requiredKeys: [] }),
      fc.dictionary(fc.string(), value),
      value,
    );
    await fc.assert(
      fc.asyncProperty(attributes, async (sent) => {
        const answer = await settingsPatch(m, sent);
        expect(answer.status, answer.text).not.toBe(500);
        if (answer.status === 200) {
          const a = sent as Record<string, number>;
          expect(answer.json.data.attributes).toEqual({
            window_hours: Number(a.window_hours),
            min_sample: Number(a.min_sample),
            exploration_percent: Number(a.exploration_percent),
          });
          await settingsPatch(m, { window_hours: 24, min_sample: 20, exploration_percent: 5 });
          return;
        }
        expect([400, 422]).toContain(answer.status);
        expect(errorsOf(answer).length).toBeGreaterThan(0);
        for (const [pointer] of errorsOf(answer)) expect(pointer.startsWith("/data/attributes"), pointer).toBe(true);
        expect(await stored()).toEqual(before);
      }),
      { numRuns: 60 },
    );
  });
});

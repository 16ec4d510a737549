import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRules, decideRoute, type RoutingTable } from "./decide";
import { routingRuleSchema, type RoutingRule } from "./rules";
import { orderBySuccess, type ConnectionStats, type SuccessSettings } from "./success";

const IDS = ["conn_a", "conn_b", "conn_c", "conn_d", "conn_e", "conn_f"];
const LABELS = new Map(IDS.map((id) => [id, id.replace("conn_", "").toUpperCase()]));

function tableOf(rules: readonly RoutingRule[], disabled: readonly string[] = []): RoutingTable {
  return {
    rules: compileRules(rules, "EUR"),
    defaultOrder: IDS,
    defaultSkipped: [],
    labels: LABELS,
    unusable: new Map(disabled.map((id) => [id, "disabled"])),
  };
}

const listed = fc.uniqueArray(fc.constantFrom(...IDS), { minLength: 1, maxLength: IDS.length });
const statsArb = fc
  .array(fc.tuple(fc.constantFrom(...IDS), fc.integer({ min: 0, max: 200 }), fc.double({ min: 0, max: 1, noNaN: true })))
  .map((entries) => new Map<string, ConnectionStats>(entries.map(([id, attempts, share]) => [id, { attempts, successes: Math.round(attempts * share) }])));
const settingsArb: fc.Arbitrary<SuccessSettings> = fc.record({
  windowHours: fc.integer({ min: 1, max: 168 }),
  minSample: fc.integer({ min: 1, max: 60 }),
  explorationPercent: fc.integer({ min: 0, max: 20 }),
});
const drawArb = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

const rate = (stats: ReadonlyMap<string, ConnectionStats>, id: string) => stats.get(id)!.successes / stats.get(id)!.attempts;
const trustedIn = (stats: ReadonlyMap<string, ConnectionStats>, minSample: number) => (id: string) => (stats.get(id)?.attempts ?? 0) >= minSample;

describe("success-rate ordering (lib/routing/success.ts)", () => {
  it("is a permutation of the outcome's enabled connections, through decideRoute, with or without exploration", () => {
    fc.assert(
      fc.property(listed, fc.subarray(IDS), statsArb, settingsArb, drawArb, (ids, disabled, stats, settings, draw) => {
        const rule: RoutingRule = { name: "By rate", conditions: {}, outcome: { kind: "cascade", connection_ids: ids, order_by: "success_rate" } };
        const decision = decideRoute(tableOf([rule], disabled), { amountMinor: 100n, customerCountry: null, card: undefined }, () => 0.5, {
          stats,
          settings,
          draw,
        });
        const enabled = ids.filter((id) => !disabled.includes(id));
        if (enabled.length === 0) return; // the rule falls through to the default rule
        expect([...decision.connectionIds].sort()).toEqual([...enabled].sort());
        expect(decision.success?.rates.map((entry) => entry.id)).toEqual(enabled);
      }),
    );
  });

  it("without exploration, sorts the trusted connections by rate (equal rates as listed) and leaves each untrusted one at its listed place", () => {
    fc.assert(
      fc.property(listed, statsArb, settingsArb, (ids, stats, settings) => {
        const { ids: ordered, success } = orderBySuccess(ids, { stats, settings: { ...settings, explorationPercent: 0 }, draw: 0 });
        const trusted = trustedIn(stats, settings.minSample);
        // Min sample: untrusted connections keep their listed positions exactly.
        ids.forEach((id, index) => {
          if (!trusted(id)) expect(ordered[index]).toBe(id);
        });
        // Trusted ones: highest rate first; equal rates in listed order.
        const trustedOrder = ordered.filter(trusted);
        for (let i = 1; i < trustedOrder.length; i += 1) {
          const [a, b] = [trustedOrder[i - 1]!, trustedOrder[i]!];
          expect(rate(stats, a)).toBeGreaterThanOrEqual(rate(stats, b));
          if (rate(stats, a) === rate(stats, b)) expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b));
        }
        expect(success.explored).toBeNull();
        expect(success.rates.filter((entry) => entry.trusted).map((entry) => entry.id)).toEqual(ids.filter(trusted));
      }),
    );
  });

  it("a connection one attempt short of the minimum sample is not trusted, however bad its rate", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 100 }), (minSample) => {
        const stats = new Map([
          ["conn_a", { attempts: minSample - 1, successes: 0 }],
          ["conn_b", { attempts: minSample, successes: minSample }],
        ]);
        const settings = { windowHours: 24, minSample, explorationPercent: 0 };
        expect(orderBySuccess(["conn_a", "conn_b"], { stats, settings, draw: 0.5 }).ids).toEqual(["conn_a", "conn_b"]);
        const more = new Map([...stats, ["conn_a", { attempts: minSample, successes: 0 }]]);
        expect(orderBySuccess(["conn_a", "conn_b"], { stats: more, settings, draw: 0.5 }).ids).toEqual(["conn_b", "conn_a"]);
      }),
    );
  });

  it("explores exactly when the draw falls below the share: one other connection goes first, the rest keep their order", () => {
    fc.assert(
      fc.property(listed, statsArb, settingsArb, drawArb, (ids, stats, settings, draw) => {
        const base = orderBySuccess(ids, { stats, settings: { ...settings, explorationPercent: 0 }, draw: 0 }).ids;
        const { ids: ordered, success } = orderBySuccess(ids, { stats, settings, draw });
        const explores = ids.length > 1 && draw < settings.explorationPercent / 100;
        expect(success.explored !== null).toBe(explores);
        if (!explores) {
          expect(ordered).toEqual(base);
          return;
        }
        expect(success.explored).not.toBe(base[0]);
        expect(ordered[0]).toBe(success.explored);
        expect(ordered.slice(1)).toEqual(base.filter((id) => id !== success.explored));
      }),
    );
  });

  it("over 10,000 invoices, explores within statistical bounds of the share, and spreads it over the others", () => {
    // Uniform draws as Math.random gives them, seeded so the run is repeatable (mulberry32); the
    // bounds are 4.5 standard deviations of a binomial, so a correct share fails about once in 150,000 seeds.
    let state = 27;
    const next = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const random = Array.from({ length: 10_000 }, next);
    const stats = new Map([
      ["conn_a", { attempts: 100, successes: 95 }],
      ["conn_b", { attempts: 100, successes: 40 }],
      ["conn_c", { attempts: 100, successes: 70 }],
    ]);
    for (const share of [0, 1, 5, 20]) {
      const explored = random.map(
        (draw) =>
          orderBySuccess(["conn_a", "conn_b", "conn_c"], { stats, settings: { windowHours: 24, minSample: 20, explorationPercent: share }, draw }).success
            .explored,
      );
      const count = explored.filter((id) => id !== null).length;
      const p = share / 100;
      const sd = Math.sqrt(10_000 * p * (1 - p));
      expect(Math.abs(count - 10_000 * p), `share ${share}%: ${count}`).toBeLessThanOrEqual(4.5 * sd);
      if (share === 20) {
        const toB = explored.filter((id) => id === "conn_b").length;
        expect(Math.abs(toB - count / 2)).toBeLessThanOrEqual(4.5 * Math.sqrt(count / 4));
        expect(explored.every((id) => id !== "conn_a")).toBe(true);
      }
    }
  });

  it("a split branch ordered by success rate is ordered within the branch the split drew", () => {
    const rule: RoutingRule = {
      name: "Split",
      conditions: {},
      outcome: {
        kind: "split",
        branches: [
          { weight: 50, connection_ids: ["conn_a", "conn_b"], order_by: "success_rate" },
          { weight: 50, connection_ids: ["conn_c", "conn_d"] },
        ],
      },
    };
    const stats = new Map([
      ["conn_a", { attempts: 50, successes: 10 }],
      ["conn_b", { attempts: 50, successes: 45 }],
      ["conn_c", { attempts: 50, successes: 5 }],
      ["conn_d", { attempts: 50, successes: 50 }],
    ]);
    const settings = { windowHours: 6, minSample: 20, explorationPercent: 0 };
    const facts = { amountMinor: 100n, customerCountry: null, card: undefined };
    const first = decideRoute(tableOf([rule]), facts, () => 0.2, { stats, settings, draw: 0.9 });
    expect(first.connectionIds).toEqual(["conn_b", "conn_a"]);
    expect(first.explanation).toContain("Ordered by success rate over the last 6 h: B 90% of 50, A 20% of 50.");
    const second = decideRoute(tableOf([rule]), facts, () => 0.7, { stats, settings, draw: 0.9 });
    expect(second.connectionIds).toEqual(["conn_c", "conn_d"]);
    expect(second.success).toBeNull();
  });

  it("says the rates, the samples and an exploration in the invoice's sentence", () => {
    const rule: RoutingRule = {
      name: "EU",
      conditions: {},
      outcome: { kind: "cascade", connection_ids: ["conn_b", "conn_f", "conn_c"], order_by: "success_rate" },
    };
    const stats = new Map([
      ["conn_f", { attempts: 120, successes: 110 }],
      ["conn_b", { attempts: 85, successes: 34 }],
      ["conn_c", { attempts: 3, successes: 3 }],
    ]);
    const facts = { amountMinor: 100n, customerCountry: null, card: undefined };
    const settings = { windowHours: 24, minSample: 20, explorationPercent: 5 };
    const plain = decideRoute(tableOf([rule]), facts, Math.random, { stats, settings, draw: 0.5 });
    expect(plain.connectionIds).toEqual(["conn_f", "conn_b", "conn_c"]);
    expect(plain.explanation).toBe(
      "Rule 1 “EU” matched and sent it to F; if it fails softly, B and C are tried next. " +
        "Ordered by success rate over the last 24 h: F 92% of 120, B 40% of 85. Fewer than 20 attempts, keeping its listed place: C (3).",
    );
    const explored = decideRoute(tableOf([rule]), facts, Math.random, { stats, settings, draw: 0.01 });
    expect(explored.connectionIds).toEqual(["conn_b", "conn_f", "conn_c"]);
    expect(explored.explanation).toContain("Exploration (5% of invoices) tried B first.");
    expect(explored.success).toMatchObject({ explored: "conn_b", window_hours: 24, min_sample: 20, exploration_percent: 5 });
  });

  it("rules saved before order_by existed parse as they were and route as listed", () => {
    const saved = routingRuleSchema.parse({ name: "Old", outcome: { kind: "cascade", connection_ids: ["conn_b", "conn_a"] } });
    expect(saved.outcome).toEqual({ kind: "cascade", connection_ids: ["conn_b", "conn_a"] });
    const stats = new Map([
      ["conn_b", { attempts: 100, successes: 0 }],
      ["conn_a", { attempts: 100, successes: 100 }],
    ]);
    const decision = decideRoute(tableOf([saved]), { amountMinor: 1n, customerCountry: null, card: undefined }, Math.random, {
      stats,
      settings: { windowHours: 24, minSample: 20, explorationPercent: 20 },
      draw: 0,
    });
    expect(decision.connectionIds).toEqual(["conn_b", "conn_a"]);
    expect(decision.success).toBeNull();
    expect(
      routingRuleSchema.safeParse({ name: "Bad", outcome: { kind: "cascade", connection_ids: ["conn_a"], order_by: "fastest" } }).error?.issues[0]?.message,
    ).toBe('order_by must be "as_listed" or "success_rate"');
  });
});

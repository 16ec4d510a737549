import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRules, decideRoute, ruleMatches, type RouteFacts, type RoutingTable } from "./decide";
import type { RoutingRule } from "./rules";

const IDS = ["conn_a", "conn_b", "conn_c", "conn_d", "conn_e"];
const COUNTRIES = ["GB", "FR", "DE", "US"];
const BRANDS = ["visa", "mastercard", "amex"] as const;

function tableOf(rules: readonly RoutingRule[], disabled: readonly string[] = [], defaultOrder = IDS.filter((id) => !disabled.includes(id))): RoutingTable {
  return {
    rules: compileRules(rules, "EUR"),
    defaultOrder,
    defaultSkipped: [],
    labels: new Map(IDS.map((id) => [id, id.replace("conn_", "Conn ").toUpperCase()])),
    unusable: new Map(disabled.map((id) => [id, "disabled"])),
  };
}

const subset = <T>(items: readonly T[]) => fc.subarray([...items], { minLength: 1 });
const ids = fc.uniqueArray(fc.constantFrom(...IDS), { minLength: 1, maxLength: 3 });

const ruleArb: fc.Arbitrary<RoutingRule> = fc.record({
  name: fc.string({ minLength: 1, maxLength: 10 }),
  conditions: fc.record(
    {
      amount_min: fc.integer({ min: 0, max: 500 }).map(String),
      amount_max: fc.integer({ min: 0, max: 1000 }).map(String),
      customer_countries: subset(COUNTRIES),
      card_brands: subset(BRANDS),
      card_countries: subset(COUNTRIES),
    },
    { requiredKeys: [] },
  ),
  outcome: fc.oneof(
    fc.record({ kind: fc.constant("cascade" as const), connection_ids: ids }),
    fc.integer({ min: 1, max: 99 }).chain((weight) =>
      fc.record({
        kind: fc.constant("split" as const),
        branches: fc.tuple(ids, ids).map(([first, second]) => [
          { weight, connection_ids: first },
          { weight: 100 - weight, connection_ids: second },
        ]),
      }),
    ),
  ),
});

const factsArb: fc.Arbitrary<RouteFacts> = fc.record({
  amountMinor: fc.bigInt({ min: 1n, max: 120_000n }),
  customerCountry: fc.option(fc.constantFrom(...COUNTRIES), { nil: null }),
  card: fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.record({ brand: fc.option(fc.constantFrom(...BRANDS), { nil: null }), country: fc.option(fc.constantFrom(...COUNTRIES), { nil: null }) }),
  ),
});

describe("decideRoute (property)", () => {
  it("sends an invoice only where the matched rule says, to an enabled connection; the earlier rules did not apply; no rule → the routing order", () => {
    fc.assert(
      fc.property(
        fc.array(ruleArb, { maxLength: 20 }),
        fc.subarray(IDS),
        factsArb,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (rules, disabled, facts, r) => {
          const table = tableOf(rules, disabled);
          const decision = decideRoute(table, facts, () => r);
          for (const id of decision.connectionIds) expect(disabled).not.toContain(id);
          if (decision.rule === null) {
            expect(decision.connectionIds).toEqual(table.defaultOrder);
            for (const rule of table.rules) {
              const match = ruleMatches(rule, facts);
              expect(match === "no" || match === "needs_card" || decision.fellThrough.some((f) => f.position === rule.position)).toBe(true);
            }
            return;
          }
          const rule = table.rules[decision.rule.position - 1]!;
          expect(ruleMatches(rule, facts)).toBe("yes");
          for (const earlier of table.rules.slice(0, rule.position - 1)) {
            const match = ruleMatches(earlier, facts);
            expect(match === "no" || match === "needs_card" || decision.fellThrough.some((f) => f.position === earlier.position)).toBe(true);
          }
          const allowed = rule.outcome.kind === "cascade" ? rule.outcome.ids : rule.outcome.branches[decision.branch!.position - 1]!.ids;
          expect(decision.connectionIds.length).toBeGreaterThan(0);
          expect(decision.connectionIds).toEqual(allowed.filter((id) => !disabled.includes(id)));
          // The amount condition is what a merchant reads first: it always holds for the chosen rule.
          if (rule.amountMin !== null) expect(facts.amountMinor >= rule.amountMin).toBe(true);
          if (rule.amountMax !== null) expect(facts.amountMinor <= rule.amountMax).toBe(true);
          expect(decision.explanation.toLowerCase()).toContain(`rule ${rule.position} “${rule.name.toLowerCase()}”`);
        },
      ),
      { numRuns: 500 },
    );
  });
});

const split7030: RoutingRule = {
  name: "Split",
  conditions: {},
  outcome: {
    kind: "split",
    branches: [
      { weight: 70, connection_ids: ["conn_a", "conn_c"] },
      { weight: 30, connection_ids: ["conn_b"] },
    ],
  },
};
const facts: RouteFacts = { amountMinor: 1000n, customerCountry: null, card: undefined };

describe("a 70/30 split", () => {
  it("lands within statistical bounds over 10,000 invoices (Math.random, as at creation)", () => {
    const table = tableOf([split7030]);
    let first = 0;
    for (let i = 0; i < 10_000; i += 1) if (decideRoute(table, facts, Math.random).connectionIds[0] === "conn_a") first += 1;
    // 7,000 expected, standard deviation √(10,000 · 0.7 · 0.3) ≈ 46: five of them either side.
    expect(first).toBeGreaterThan(7000 - 230);
    expect(first).toBeLessThan(7000 + 230);
  });

  it("names the branch and the draw, and gives a disabled branch's share to the other", () => {
    const decision = decideRoute(tableOf([split7030]), facts, () => 0.8);
    expect(decision.branch).toEqual({ position: 2, weight: 30, draw: 80 });
    expect(decision.explanation).toContain("drew branch 2 (30%, draw 80.0 of 100)");
    const onlyA = decideRoute(tableOf([split7030], ["conn_b"]), facts, () => 0.99);
    expect(onlyA.connectionIds).toEqual(["conn_a", "conn_c"]);
    expect(onlyA.explanation).toContain("CONN B (disabled)");
  });
});

describe("card conditions", () => {
  const visa: RoutingRule = { name: "Visa", conditions: { card_brands: ["visa"] }, outcome: { kind: "cascade", connection_ids: ["conn_d"] } };
  it("wait for the card: passed over before Pay and named, decided once the card is known", () => {
    const table = tableOf([visa]);
    const before = decideRoute(table, facts, Math.random);
    expect(before.rule).toBeNull();
    expect(before.waitingForCard).toEqual([{ position: 1, name: "Visa" }]);
    expect(before.explanation).toContain("depends on the card");
    const atPay = decideRoute(table, { ...facts, card: { brand: "visa", country: "GB" } }, Math.random);
    expect(atPay.connectionIds).toEqual(["conn_d"]);
    expect(atPay.explanation).toContain("Card: Visa, issued in GB.");
    expect(decideRoute(table, { ...facts, card: { brand: "mastercard", country: "GB" } }, Math.random).rule).toBeNull();
  });

  it("a rule whose connections are all disabled falls through, and the sentence says so", () => {
    const decision = decideRoute(tableOf([{ ...visa, conditions: {} }], ["conn_d"]), facts, Math.random);
    expect(decision.rule).toBeNull();
    expect(decision.explanation).toContain("rule 1 “Visa” matched but no connection of its could take the invoice".replace("rule", "Rule"));
  });
});

describe("what the invoice asks of the provider", () => {
  // conn_a is Provider D (sells only), conn_b Provider E (authorizes, keeps no cards), conn_c Provider B (both).
  const PROVIDERS = new Map([
    ["conn_a", "provider-d"],
    ["conn_b", "provider-e"],
    ["conn_c", "provider-b"],
  ]);
  const table = (rules: readonly RoutingRule[] = []): RoutingTable => ({ ...tableOf(rules, [], ["conn_a", "conn_b", "conn_c"]), providers: PROVIDERS });
  const facts = (asks: RouteFacts["asks"]): RouteFacts => ({ amountMinor: 100n, customerCountry: null, card: undefined, asks });

  it("a sale is routed as before: nothing is skipped for a capability", () => {
    const decision = decideRoute(table(), facts([]), () => 0);
    expect(decision.connectionIds).toEqual(["conn_a", "conn_b", "conn_c"]);
    expect(decision.skipped).toEqual([]);
  });

  it("the default rule and a rule's cascade pass over providers that cannot, in plain words", () => {
    const authorize = decideRoute(table(), facts(["authorize_capture"]), () => 0);
    expect(authorize.connectionIds).toEqual(["conn_b", "conn_c"]);
    expect(authorize.skipped).toEqual([{ id: "conn_a", why: "Provider D cannot authorize now and capture later" }]);
    expect(authorize.explanation).toContain("Skipped: CONN A (Provider D cannot authorize now and capture later).");

    const ruled = decideRoute(
      table([{ name: "E first", conditions: {}, outcome: { kind: "cascade", connection_ids: ["conn_b", "conn_a", "conn_c"] } }]),
      facts(["card_tokens"]),
      () => 0,
    );
    expect(ruled.rule).toEqual({ position: 1, name: "E first" });
    expect(ruled.connectionIds).toEqual(["conn_a", "conn_c"]);
    expect(ruled.skipped).toEqual([{ id: "conn_b", why: "Provider E cannot save cards for later charges" }]);

    const both = decideRoute(table(), facts(["authorize_capture", "card_tokens"]), () => 0);
    expect(both.connectionIds).toEqual(["conn_c"]);
  });

  it("a split leaves out a branch whose providers cannot, and the rule falls through when none can", () => {
    const split = {
      kind: "split" as const,
      branches: [
        { weight: 50, connection_ids: ["conn_a"] },
        { weight: 50, connection_ids: ["conn_b"] },
      ],
    };
    const decision = decideRoute(table([{ name: "Half", conditions: {}, outcome: split }]), facts(["authorize_capture"]), () => 0);
    expect(decision.connectionIds).toEqual(["conn_b"]);
    const none = decideRoute(
      table([{ name: "D only", conditions: {}, outcome: { kind: "cascade", connection_ids: ["conn_a"] } }]),
      facts(["authorize_capture"]),
      () => 0,
    );
    expect(none.fellThrough).toEqual([{ position: 1, name: "D only" }]);
    expect(none.connectionIds).toEqual(["conn_b", "conn_c"]);
  });
});

describe("decideRoute with a rule requiring 3-D Secure", () => {
  const threeDs = (ids: string[]): RoutingRule => ({
    name: "Big",
    conditions: { amount_min: "100.00" },
    outcome: { kind: "cascade", connection_ids: ids },
    require_three_ds: true,
  });
  const facts = (amountMinor: bigint): RouteFacts => ({ amountMinor, customerCountry: null, card: null });
  const providers = new Map([
    ["conn_a", "provider-a"],
    ["conn_d", "provider-d"],
  ]);

  it("says so in its result and its sentence when the rule decides; the default rule leaves it to the provider", () => {
    const table = { ...tableOf([threeDs(["conn_a"])]), providers };
    const big = decideRoute(table, facts(20_000n), () => 0);
    expect(big).toMatchObject({ connectionIds: ["conn_a"], threeDs: "required" });
    expect(big.explanation).toContain("The rule requires 3-D Secure");
    const small = decideRoute(table, facts(1_000n), () => 0);
    expect(small.threeDs).toBe("provider");
    expect(small.explanation).not.toContain("3-D Secure");
  });

  it("passes over a connection whose provider cannot authenticate, and says why", () => {
    const table = { ...tableOf([threeDs(["conn_d", "conn_a"])]), providers };
    const decision = decideRoute(table, facts(20_000n), () => 0);
    expect(decision.connectionIds).toEqual(["conn_a"]);
    expect(decision.skipped).toEqual([{ id: "conn_d", why: "Provider D cannot authenticate the customer with 3-D Secure" }]);
  });
});

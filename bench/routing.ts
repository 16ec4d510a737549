/**
 * `npm run bench:routing`: what routing one invoice costs with 20 rules (the budget: under 1 ms),
 * beside a bare baseline loop in the same run. Pure CPU, no database: invoice creation reads the
 * routing setup from the route cache (one query per merchant, service and mode every few seconds),
 * so what each invoice pays is the decision (lib/routing/decide.ts) and the stored detail it writes.
 *
 * Cases, each with 20 rules before the default over 10 connections:
 *   no rule applies    every rule is checked, the default rule decides (the longest path)
 *   last rule applies  the 20th rule, a 70/30 split, decides
 *   at Pay             the card is known: rules on the card are decided too
 *   success rate       the 20th rule's branch is ordered by success rate (counts for 10
 *                      connections from the per-process stats cache, 5% exploration)
 * and, once per cache fill, compiling the 20 saved rules. Baseline: taking the first of the routing
 * order, which is what routing did before rules. Each figure is the median of BENCH_BATCHES (41)
 * batches of BENCH_ITERATIONS (2,000) calls, per call.
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { compileRules, decideRoute, type RouteFacts, type RoutingTable } from "../lib/routing/decide";
import { toStoredDetail } from "../lib/routing/detail";
import type { RoutingRule } from "../lib/routing/rules";
import type { ConnectionStats, SuccessSnapshot } from "../lib/routing/success";

const BATCHES = Number(process.env.BENCH_BATCHES ?? 41);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2_000);
const BUDGET_MS = 1;

const ids = Array.from({ length: 10 }, (_, i) => `conn_${String(i).padStart(22, "x")}`);
const countries = ["FR", "DE", "ES", "IT", "NL", "BE", "AT", "PL", "PT", "IE"];

/** Twenty rules of every kind; none of the first nineteen applies to the invoices below. */
function twentyRules(): RoutingRule[] {
  const rules: RoutingRule[] = [];
  for (let i = 0; i < 19; i += 1) {
    const conditions: RoutingRule["conditions"] =
      i % 4 === 0
        ? { amount_min: `${5_000 + i}.00`, customer_countries: countries.slice(0, 5) }
        : i % 4 === 1
          ? { customer_countries: [countries[i % countries.length]!], amount_max: "10000.00" }
          : i % 4 === 2
            ? { card_brands: ["amex", "jcb"], card_countries: ["JP"] }
            : { amount_min: "0.01", amount_max: "1.00" };
    rules.push({
      name: `Rule ${i + 1}`,
      conditions,
      outcome:
        i % 3 === 0
          ? {
              kind: "split",
              branches: [
                { weight: 60, connection_ids: ids.slice(0, 3) },
                { weight: 40, connection_ids: ids.slice(3, 6) },
              ],
            }
          : { kind: "cascade", connection_ids: [ids[i % 10]!, ids[(i + 1) % 10]!, ids[(i + 2) % 10]!] },
    });
  }
  rules.push({
    name: "Everything else, split",
    conditions: { customer_countries: ["GB"] },
    outcome: {
      kind: "split",
      branches: [
        { weight: 70, connection_ids: [ids[0]!, ids[1]!] },
        { weight: 30, connection_ids: [ids[2]!] },
      ],
    },
  });
  return rules;
}

const rules = twentyRules();
/** The same twenty rules, the last one's branches ordered by success rate. */
const ratedRules: RoutingRule[] = rules.map((rule, index) =>
  index === rules.length - 1 && rule.outcome.kind === "split"
    ? { ...rule, outcome: { ...rule.outcome, branches: rule.outcome.branches.map((branch) => ({ ...branch, order_by: "success_rate" as const })) } }
    : rule,
);
const stats = new Map<string, ConnectionStats>(ids.map((id, i) => [id, { attempts: 50 + i * 7, successes: 40 + ((i * 13) % 17) }]));
const snapshot = (): SuccessSnapshot => ({ stats, settings: { windowHours: 24, minSample: 20, explorationPercent: 5 }, draw: Math.random() });
const table: RoutingTable = {
  rules: compileRules(rules, "EUR"),
  defaultOrder: ids.slice(0, 8),
  defaultSkipped: [ids[8]!],
  labels: new Map(ids.map((id, i) => [id, `Connection ${i + 1}`])),
  unusable: new Map([
    [ids[8]!, "disabled"],
    [ids[9]!, "does not offer payment_card_eur_hpp"],
  ]),
};
const ratedTable: RoutingTable = { ...table, rules: compileRules(ratedRules, "EUR") };
const noRule: RouteFacts = { amountMinor: 12_345n, customerCountry: "US", card: undefined };
const lastRule: RouteFacts = { amountMinor: 12_345n, customerCountry: "GB", card: undefined };
const atPay: RouteFacts = { amountMinor: 12_345n, customerCountry: "US", card: { brand: "visa", country: "US" } };

let sink = 0;
function perCallMs(run: () => void): number[] {
  const samples: number[] = [];
  for (let batch = 0; batch < BATCHES; batch += 1) {
    const start = performance.now();
    for (let i = 0; i < ITERATIONS; i += 1) run();
    samples.push((performance.now() - start) / ITERATIONS);
  }
  return samples.sort((a, b) => a - b);
}
const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)]!;
const worst = (sorted: number[]) => sorted[sorted.length - 1]!;

const route = (facts: RouteFacts) => () => {
  const decision = decideRoute(table, facts, Math.random);
  sink += toStoredDetail(decision, { decidedAt: "creation", version: 3, customerCountry: facts.customerCountry }).order.length;
};
const rated = () => {
  const decision = decideRoute(ratedTable, lastRule, Math.random, snapshot());
  sink += toStoredDetail(decision, { decidedAt: "creation", version: 3, customerCountry: lastRule.customerCountry }).order.length;
};
const cases: [string, () => void][] = [
  ["baseline: first of the routing order", () => (sink += table.defaultOrder[0]!.length)],
  ["20 rules, no rule applies", route(noRule)],
  ["20 rules, the last (a split) applies", route(lastRule)],
  ["20 rules, at Pay (card known)", route(atPay)],
  ["20 rules, the last ordered by success rate", rated],
  ["compile 20 saved rules (once per cache fill)", () => (sink += compileRules(rules, "EUR").length)],
];

// Warm up every path before measuring.
for (const [, run] of cases) for (let i = 0; i < 5_000; i += 1) run();

console.log(`Routing one invoice: median of ${BATCHES} batches of ${ITERATIONS} calls, per call`);
console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(2)}\n`);
console.log(`${"case".padEnd(46)}${"median µs".padStart(12)}${"worst µs".padStart(12)}${"× baseline".padStart(14)}`);
let baseline = 0;
let slowest = 0;
for (const [name, run] of cases) {
  const samples = perCallMs(run);
  const m = median(samples);
  if (baseline === 0) baseline = m;
  if (!name.startsWith("baseline") && !name.startsWith("compile")) slowest = Math.max(slowest, m);
  console.log(
    `${name.padEnd(46)}${(m * 1000).toFixed(2).padStart(12)}${(worst(samples) * 1000).toFixed(2).padStart(12)}${(m / baseline).toFixed(0).padStart(14)}`,
  );
}
console.log(
  `\nSlowest routing case: ${(slowest * 1000).toFixed(1)} µs per invoice, ${slowest < BUDGET_MS ? "under" : "OVER"} the ${BUDGET_MS} ms budget (${((slowest / BUDGET_MS) * 100).toFixed(1)}% of it).`,
);
if (sink === -1) console.log("");

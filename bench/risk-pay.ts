/**
 * `npm run bench:risk-pay`: what the risk check costs a Pay with its database work (the budget:
 * under 1 ms at p99), beside a bare baseline in the same run, on the embedded PGlite, or with
 * BENCH_DATABASE_URL=postgres://…/any on PostgreSQL (a throwaway database created here). `bench:risk`
 * measures the decision alone. Measured: the transaction that takes an invoice for a Pay as
 * lib/processing/request.ts runs it, with `riskGate` (the merchant's lock, the rules version, the
 * day's attempts sharing a key, the attempt recorded, the verdict) before the take. Baseline: the
 * same take without the check. The two alternate, one Pay each, so they share the machine's noise.
 * The history is busy: BENCH_HISTORY (300) earlier attempts of the merchant and 50 blocklist
 * entries (analyzed on PostgreSQL, as autovacuum would). Each Pay is a real customer's: its own invoice, card and address, so it passes; p50 and
 * p99 over BENCH_ITERATIONS (1,000) Pays of each per round after a warm-up, BENCH_ROUNDS (3) rounds,
 * medians over rounds (a p99 of 1,000 moves with the machine's noise by about the budget itself).
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createApiKey } from "@/lib/api-keys/queries";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { createConnection } from "@/lib/connections/service";
import { openEmbedded, openPostgres, type Db, type Handle } from "@/lib/db/client";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import type { InvoiceRow } from "@/lib/invoices/store";
import { changeInvoiceStatusWithin } from "@/lib/invoices/status";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { riskGate } from "@/lib/processing/risk-gate";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { addBlocklistEntry } from "@/lib/risk/store";
import { describeRunConditions, median, startRunConditions } from "./support";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 300);
const WARM_UP = 100;
const BUDGET_MS = 1;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "";
process.env.CREDENTIALS_KEY ??= randomBytes(32).toString("base64");
// Thousands of seeded invoices would each log a line.
process.env.LOG_LEVEL ??= "warn";

/** A Luhn-valid test number from a counter, so every Pay has a card of its own. */
function cardNumber(n: number): string {
  const body = `4000${String(n).padStart(11, "0")}`;
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    let digit = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

async function seed(db: Db): Promise<{ invoices: InvoiceRow[] }> {
  const account = `bench-${randomBytes(4).toString("hex")}`;
  const created = await createMerchantWithOwner(db, {
    email: `${account}@example.com`,
    password: "bench-password-0",
    name: "Bench Owner",
    merchantName: "Bench Shop",
    commerceAccount: account,
  });
  if (!created.ok) throw new Error("seed merchant");
  const merchant = created.value.merchant;
  await createApiKey(db, { merchantId: merchant.id, name: "bench" });
  const scope = { db, merchantId: merchant.id, actor: { label: "bench" }, vaultKey: Buffer.from(process.env.CREDENTIALS_KEY!, "base64") };
  const connection = await createConnection(
    scope,
    createConnectionSchema.parse({
      provider: "provider-a",
      kind: "h2h",
      label: "A bench",
      mode: "test",
      credentials: sampleCredentials("provider-a", "h2h", "test"),
    }),
  );
  if (!connection.ok) throw new Error(`seed connection: ${JSON.stringify(connection)}`);
  for (let i = 0; i < 50; i += 1) {
    const kinds = ["bin", "email", "address", "country"] as const;
    const kind = kinds[i % kinds.length]!;
    const value = { bin: String(510000 + i), email: `fraud${i}@example.com`, address: `10.${i}.0.0/16`, country: ["KP", "IR", "SY", "CU"][i % 4]! }[kind];
    await addBlocklistEntry(db, { merchantId: merchant.id, actor: { type: "system", id: null, label: "bench" }, mode: "test" }, { kind, value, note: "bench" });
  }
  const invoices: InvoiceRow[] = [];
  for (let i = 0; i < HISTORY + 2 * (ROUNDS * ITERATIONS + WARM_UP); i += 1) {
    const body = templateEnvelope(findTemplate("a-payment")!, { commerceAccount: account, referenceId: `risk-${i}-${randomBytes(4).toString("hex")}` }) as {
      data: { attributes: Record<string, unknown> };
    };
    body.data.attributes.test_mode = true;
    const made = await createInvoice(db, merchant, "payment", body);
    if (made.kind !== "created") throw new Error(`seed invoice: ${JSON.stringify(made)}`);
    invoices.push(made.invoice);
  }
  return { invoices };
}

type Timing = { name: string; times: number[] };

const percentile = (times: readonly number[], p: number) => [...times].sort((a, b) => a - b)[Math.floor(times.length * p)]!;

async function timed(timing: Timing, run: () => Promise<unknown>): Promise<void> {
  const start = performance.now();
  await run();
  timing.times.push(performance.now() - start);
}

/** PGlite in a directory of its own, or a throwaway database on BENCH_DATABASE_URL's PostgreSQL, dropped at the end. */
async function openBenchDatabase(): Promise<{ handle: Handle; where: string; drop: () => Promise<void> }> {
  if (!ADMIN_URL) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "po-bench-risk-"));
    const handle = await openEmbedded(dir);
    return { handle, where: "embedded PGlite", drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const { default: postgres } = await import("postgres");
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const name = `bench_risk_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.href);
  return {
    handle,
    where: "PostgreSQL",
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

async function main() {
  const { handle, where, drop } = await openBenchDatabase();
  const conditions = startRunConditions(where);
  try {
    const { invoices } = await seed(handle.db);
    const db = handle.db;
    let next = 0;
    // A Pay's take of its invoice (created → processing), with the risk check before it or without.
    const pay = (checked: boolean) => {
      const n = next++;
      const invoice = invoices[n]!;
      return db.transaction(async (tx) => {
        if (checked) {
          const { decision } = await riskGate(tx, invoice, { number: cardNumber(n) }, `198.51.${Math.floor(n / 250) % 250}.${n % 250}`);
          if (decision.kind !== "pass") throw new Error(`a real customer's Pay was refused: ${decision.rule}`);
        }
        await changeInvoiceStatusWithin(tx, invoice, "processing", undefined, { reason: "payment request" });
      });
    };
    // The busy history, then a warm-up of both.
    for (let i = 0; i < HISTORY; i += 1) await pay(true);
    // The planner's statistics as a running PostgreSQL has them (autovacuum's analyze); the embedded
    // PGlite runs no autovacuum, and the app none of its own, so there it plans as the app does.
    if (ADMIN_URL) await db.execute(sql`analyze`);
    for (let i = 0; i < WARM_UP; i += 1) {
      await pay(false);
      await pay(true);
    }
    const names = ["baseline: the take of the invoice alone (one transaction)", `with riskGate before the take (${HISTORY}+ attempts, 50 blocklist entries)`];
    const rounds: { p50: number; p99: number }[][] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const baseline: Timing = { name: names[0]!, times: [] };
      const checked: Timing = { name: names[1]!, times: [] };
      for (let i = 0; i < ITERATIONS; i += 1) {
        await timed(baseline, () => pay(false));
        await timed(checked, () => pay(true));
      }
      rounds.push([baseline, checked].map(({ times }) => ({ p50: percentile(times, 0.5), p99: percentile(times, 0.99) })));
    }
    const rows = names.map((name, n) => ({ name, p50: median(rounds.map((round) => round[n]!.p50)), p99: median(rounds.map((round) => round[n]!.p99)) }));
    console.log(describeRunConditions(conditions));
    console.log(
      `bench:risk-pay on ${os.cpus()[0]?.model ?? "?"} (${os.cpus().length} cores), ${ITERATIONS} Pays each in ${ROUNDS} rounds, medians over rounds`,
    );
    for (const row of rows) console.log(`${row.name.padEnd(72)} p50 ${row.p50.toFixed(3)} ms  p99 ${row.p99.toFixed(3)} ms`);
    const cost = rows[1]!.p99 - rows[0]!.p99;
    console.log(`the check's cost at p50 over the baseline: ${(rows[1]!.p50 - rows[0]!.p50).toFixed(3)} ms`);
    console.log(`the check's cost at p99 over the baseline: ${cost.toFixed(3)} ms (${cost < BUDGET_MS ? "within" : "OVER"} the ${BUDGET_MS} ms budget)`);
    if (cost >= BUDGET_MS) process.exitCode = 1;
  } finally {
    await handle.close();
    await drop();
  }
}

await main();

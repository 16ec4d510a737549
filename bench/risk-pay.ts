/**
 * `npm run bench:risk-pay`: what the risk check costs a Pay with its database work (the budget:
 * under 1 ms at p99), beside a bare baseline in the same run, on the embedded PGlite. `bench:risk`
 * measures the decision alone; this measures `riskGate` as Pay calls it: one transaction holding
 * the merchant's advisory lock, the blocklist and the recent attempts read, the verdict, the
 * attempt recorded. Baseline: the transaction alone (BEGIN, one SELECT, COMMIT), which a Pay's own
 * writes already pay for. The history is busy: BENCH_HISTORY (300) earlier attempts of the
 * merchant and 50 blocklist entries. Each Pay is a real customer's: its own invoice, card and
 * address, so it passes; p50 and p99 over BENCH_ITERATIONS (2,000) Pays after a warm-up.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { createApiKey } from "@/lib/api-keys/queries";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { createConnection } from "@/lib/connections/service";
import { openEmbedded, type Db } from "@/lib/db/client";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import type { InvoiceRow } from "@/lib/invoices/store";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { riskGate } from "@/lib/processing/risk-gate";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { addBlocklistEntry } from "@/lib/risk/store";
import { describeRunConditions, startRunConditions } from "./support";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2_000);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 300);
const BUDGET_MS = 1;
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
  for (let i = 0; i < HISTORY + ITERATIONS + 200; i += 1) {
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

async function measure(name: string, count: number, run: (n: number) => Promise<unknown>): Promise<{ name: string; p50: number; p99: number }> {
  const times = new Float64Array(count);
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await run(i);
    times[i] = performance.now() - start;
  }
  times.sort();
  return { name, p50: times[Math.floor(count * 0.5)]!, p99: times[Math.floor(count * 0.99)]! };
}

async function main() {
  const conditions = startRunConditions("embedded PGlite");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "po-bench-risk-"));
  const handle = await openEmbedded(dir);
  try {
    const { invoices } = await seed(handle.db);
    const pay = (i: number) => riskGate(handle.db, invoices[i]!, { number: cardNumber(i) }, `198.51.${Math.floor(i / 250) % 250}.${i % 250}`);
    // The busy history, then a warm-up of both.
    for (let i = 0; i < HISTORY; i += 1) await pay(i);
    const baseline = (_: number) => handle.db.transaction((tx) => tx.execute(sql`select 1`));
    for (let i = 0; i < 200; i += 1) await baseline(i);
    for (let i = 0; i < 200; i += 1) await pay(HISTORY + ITERATIONS + i);
    const rows = [
      await measure("baseline: a transaction (BEGIN, SELECT 1, COMMIT)", ITERATIONS, baseline),
      await measure(`riskGate with its database work (${HISTORY} attempts, 50 blocklist entries)`, ITERATIONS, (i) => pay(HISTORY + i)),
    ];
    console.log(describeRunConditions(conditions));
    console.log(`bench:risk-pay on ${os.cpus()[0]?.model ?? "?"} (${os.cpus().length} cores), ${ITERATIONS} Pays each`);
    for (const row of rows) console.log(`${row.name.padEnd(72)} p50 ${row.p50.toFixed(3)} ms  p99 ${row.p99.toFixed(3)} ms`);
    const cost = rows[1]!.p99 - rows[0]!.p99;
    console.log(`the check's cost at p99 over the baseline: ${cost.toFixed(3)} ms (${cost < BUDGET_MS ? "within" : "OVER"} the ${BUDGET_MS} ms budget)`);
    if (cost >= BUDGET_MS) process.exitCode = 1;
  } finally {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();

/**
 * `npm run bench:risk`: what the risk rules cost a Pay (the budget: under 1 ms at p99), beside a
 * bare baseline in the same run. The check's own work per Pay: three keyed hashes (card, address,
 * e-mail), the blocklist (200 entries of every kind, ranges included) and the velocity limits over a
 * busy history (300 recent attempts sharing a key with this one, the most the windows hold for a
 * merchant under attack). Baseline: the card's fingerprint alone (one HMAC), which any check
 * needs. The database part (one advisory lock, three indexed reads, one insert in the Pay's own
 * transaction) is measured by `tests/integration/risk.test.ts`'s concurrency case, not here.
 * Each figure: p50 and p99 over BENCH_ITERATIONS (20,000) calls after a warm-up.
 */
import { createHmac, randomBytes } from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { matchBlocklist, type BlocklistEntry } from "../lib/risk/blocklist";
import { DEFAULT_RISK_SETTINGS } from "../lib/risk/settings";
import { velocityVerdict, type PastAttempt } from "../lib/risk/velocity";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const BUDGET_MS = 1;
const key = randomBytes(32);
const hash = (kind: string, value: string) => createHmac("sha256", key).update(`${kind}\u0000${value}`).digest("base64url");

const entries: BlocklistEntry[] = Array.from({ length: 200 }, (_, i): BlocklistEntry => {
  const kinds = ["card", "bin", "email", "address", "country"] as const;
  const kind = kinds[i % kinds.length]!;
  const value = {
    card: hash("card", `4000${i}`),
    bin: String(400000 + i),
    email: `fraud${i}@example.com`,
    address: `10.${i}.0.0/16`,
    country: `Q${String.fromCharCode(65 + (i % 26))}`,
  }[kind];
  return { kind, value };
});
const now = Date.now();
const history: PastAttempt[] = Array.from({ length: 300 }, (_, i) => ({
  invoiceId: `inv-${i % 40}`,
  cardFingerprint: hash("card", `card-${i % 60}`),
  addressHash: hash("address", `198.51.100.${i % 3}`),
  emailHash: hash("email", `buyer${i % 5}@example.com`),
  outcome: (["declined", "succeeded", "open", "blocked"] as const)[i % 4]!,
  at: now - (i % 50) * 60_000,
}));

function check(n: number): unknown {
  const number = `42424242${String(n % 100_000).padStart(8, "0")}`;
  const keys = {
    invoiceId: "inv-7",
    cardFingerprint: hash("card", number),
    addressHash: hash("address", "198.51.100.1"),
    emailHash: hash("email", "buyer1@example.com"),
  };
  const listed = matchBlocklist(entries, {
    cardFingerprint: keys.cardFingerprint,
    cardDigits: number,
    email: "buyer1@example.com",
    address: "198.51.100.1",
    country: "GB",
  });
  return listed ?? velocityVerdict(DEFAULT_RISK_SETTINGS, history, keys, now);
}

function baseline(n: number): unknown {
  return hash("card", `42424242${String(n % 100_000).padStart(8, "0")}`);
}

function measure(name: string, run: (n: number) => unknown): { name: string; p50: number; p99: number } {
  for (let i = 0; i < 2_000; i += 1) run(i);
  const times = new Float64Array(ITERATIONS);
  let sink = 0;
  for (let i = 0; i < ITERATIONS; i += 1) {
    const start = performance.now();
    sink += run(i) === null ? 0 : 1;
    times[i] = performance.now() - start;
  }
  if (sink < 0) console.log(sink);
  times.sort();
  return { name, p50: times[Math.floor(ITERATIONS * 0.5)]!, p99: times[Math.floor(ITERATIONS * 0.99)]! };
}

const rows = [measure("baseline: the card's fingerprint", baseline), measure("risk check (hashes, 200 blocklist entries, 300 attempts)", check)];
console.log(`bench:risk on ${os.cpus()[0]?.model ?? "?"} (${os.cpus().length} cores), ${ITERATIONS} calls each`);
for (const row of rows) console.log(`${row.name.padEnd(60)} p50 ${row.p50.toFixed(4)} ms  p99 ${row.p99.toFixed(4)} ms`);
const checkRow = rows[1]!;
const within = checkRow.p99 < BUDGET_MS;
console.log(within ? `within the budget: p99 under ${BUDGET_MS} ms` : `OVER the budget: p99 ${checkRow.p99.toFixed(3)} ms ≥ ${BUDGET_MS} ms`);
if (!within) process.exitCode = 1;

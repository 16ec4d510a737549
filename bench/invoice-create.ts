/**
 * `npm run bench`: invoice creation through the app vs a bare node:http baseline (same validation,
 * same insert), 50 concurrent clients, alternating rounds so both see the same machine noise.
 * Prints throughput and p99 of each (median over rounds) and the ratio. Needs `next build` first.
 * Embedded PGlite by default; BENCH_DATABASE_URL=postgres://… runs both against PostgreSQL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createApiKey } from "@/lib/api-keys/queries";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { createConnection } from "@/lib/connections/service";
import { openEmbedded, openPostgres } from "@/lib/db/client";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { runLoad, type LoadResult } from "./load";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
process.env.CREDENTIALS_KEY ??= randomBytes(32).toString("base64");
process.env.LOG_LEVEL = "silent";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "";

async function seed(dir: string) {
  const handle = DATABASE_URL ? await openPostgres(DATABASE_URL) : await openEmbedded(dir);
  try {
    const account = `bench-${randomBytes(4).toString("hex")}`;
    const created = await createMerchantWithOwner(handle.db, {
      email: `${account}@example.com`,
      password: "bench-password-1",
      name: "Bench",
      merchantName: "Bench",
      commerceAccount: account,
    });
    if (!created.ok) throw new Error("seed merchant");
    const merchantId = created.value.merchant.id;
    // One key per client, as 50 integrations would have: the API limits each key to 100 requests/s.
    const keys: string[] = [];
    for (let i = 0; i < CONCURRENCY; i++) keys.push((await createApiKey(handle.db, { merchantId, name: `bench ${i}` })).key);
    const scope = { db: handle.db, merchantId, actor: { label: "bench" }, vaultKey: Buffer.from(process.env.CREDENTIALS_KEY!, "base64") };
    const input = createConnectionSchema.parse({ provider: "provider-b", kind: "h2h", label: "B", mode: "test", credentials: sampleCredentials("provider-b", "h2h", "test") });
    const connection = await createConnection(scope, input);
    if (!connection.ok) throw new Error("seed connection");
    return { merchantId, account, keys };
  } finally {
    await handle.close();
  }
}

function start(command: string, args: string[], env: Record<string, string>, readyUrl?: string): Promise<ChildProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} did not start`)), 60_000);
    const ready = () => {
      clearTimeout(timer);
      resolve(child);
    };
    if (readyUrl) {
      const poll = async () => {
        try {
          if ((await fetch(readyUrl)).ok) return ready();
        } catch {}
        setTimeout(poll, 200);
      };
      void poll();
    } else child.stdout!.on("data", (d: Buffer) => d.toString().includes("ready") && ready());
    child.on("exit", (code) => reject(new Error(`${command} exited with ${code}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    child.on("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000);
  });
}

function invoiceBody(account: string) {
  return () =>
    JSON.stringify({
      data: {
        type: "payment-invoice",
        attributes: {
          service: "payment_card_eur_hpp",
          commerce_account: account,
          currency: "EUR",
          amount: "100.50",
          reference_id: randomUUID(),
          flow: "charge",
          test_mode: true,
          options: { allow_partially: false },
          customer: { name: "Ada", email: "ada@example.com", address: { country: "GB", city: "London" } },
        },
      },
    });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  if (!fs.existsSync(".next/BUILD_ID")) throw new Error("Run `npx next build` first (npm test does).");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "po-bench-"));
  const appDir = path.join(root, "app");
  const bareDir = path.join(root, "bare");
  const app = await seed(appDir);
  const bare = await seed(bareDir);
  const load = (port: number, account: string, keys: string[], concurrency = CONCURRENCY, seconds = SECONDS) =>
    runLoad({
      port,
      path: "/api/commerce/payment-invoices",
      concurrency,
      seconds,
      headers: (client) => ({ "content-type": "application/json", authorization: `Bearer ${keys[client % keys.length]}` }),
      body: invoiceBody(account),
      expect: [201],
    });

  const appServer = await start("npx", ["tsx", "--import", "./scripts/register-server-only.mjs", "server.ts"], { DATA_DIR: appDir, DATABASE_URL, PORT: "3501", NODE_ENV: "production", AUTH_SECRET: "bench-only-secret" }, "http://127.0.0.1:3501/api/commerce/openapi.json");
  const bareServer = await start("npx", ["tsx", "--import", "./scripts/register-server-only.mjs", "bench/bare-server.ts"], { DATA_DIR: bareDir, DATABASE_URL, PORT: "3502", BENCH_MERCHANT_ID: bare.merchantId });
  const results: { app: LoadResult[]; bare: LoadResult[] } = { app: [], bare: [] };
  try {
    // Warm-up: JIT, connection pools, PGlite caches.
    await load(3501, app.account, app.keys, 10, 2);
    await load(3502, bare.account, bare.keys, 10, 2);
    for (let round = 0; round < ROUNDS; round++) {
      results.app.push(await load(3501, app.account, app.keys));
      results.bare.push(await load(3502, bare.account, bare.keys));
    }
  } finally {
    await stop(appServer);
    await stop(bareServer);
    fs.rmSync(root, { recursive: true, force: true });
  }
  const summary = (rs: LoadResult[]) => ({
    throughput: median(rs.map((r) => r.throughput)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    errors: rs.reduce((n, r) => n + r.errors, 0),
    requests: rs.reduce((n, r) => n + r.requests, 0),
  });
  const a = summary(results.app);
  const b = summary(results.bare);
  const line = (name: string, s: ReturnType<typeof summary>) =>
    `${name.padEnd(28)} ${s.throughput.toFixed(0).padStart(6)} req/s   p50 ${s.p50.toFixed(1).padStart(6)} ms   p99 ${s.p99.toFixed(1).padStart(6)} ms   (${s.requests} requests, ${s.errors} errors)`;
  console.log(`\nInvoice creation on ${DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}, ${CONCURRENCY} concurrent clients, ${ROUNDS} rounds of ${SECONDS}s (medians):`);
  console.log(line("app (npm start, lean path)", a));
  console.log(line("bare node:http baseline", b));
  console.log(`throughput ratio app/bare: ${(a.throughput / b.throughput).toFixed(2)}   p99 app: ${a.p99.toFixed(1)} ms`);
  if (a.errors || b.errors) process.exitCode = 1;
}

await main();

/**
 * `npm run bench:scale`: create-payment throughput with 1, 2 and 3 app instances on one PostgreSQL
 * behind a round-robin loopback load balancer (bench/lb.ts), and the balancer's own cost (one
 * instance reached directly vs through it). Needs `next build` first.
 *
 * - A throwaway database is created on BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres)
 *   for the run and dropped at the end, also after a failure or Ctrl-C.
 * - Migrations run once, here, before any instance starts (openPostgres from lib/db/client); the
 *   instances then start as in production (`server.ts` over the build, NODE_ENV=production) and
 *   find nothing left to apply.
 * - Instance 1 runs the job workers, the others have JOBS_WORKERS=off (one worker pool, as a
 *   deployment with a single worker process would have; create-payment queues no job anyway).
 * - All instances start before the first round: the "N instances" balancer sends to the first N,
 *   the others stay idle (no requests, no workers). The configurations take turns within each round
 *   (in a rotating order) so they all see the same machine noise and the same table size; medians over rounds.
 * - Load: BENCH_CONCURRENCY (50) closed-loop clients over 8 merchants x 6 API keys, rate limits at
 *   their defaults; BENCH_ROUNDS (3) rounds of BENCH_SECONDS (8) per configuration.
 * - Every child (instances, balancers) is a `node --import tsx …` process in its own process group,
 *   ended as a group; the bench exits when it is done.
 * - CPU: for each configuration the CPU time of the instances, the balancer, the PostgreSQL backends
 *   of the bench database, this process (the load generator) and the whole machine (other work on
 *   the host included), per second of the round, from /proc (Linux).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import { createApiKey } from "@/lib/api-keys/queries";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { createConnection } from "@/lib/connections/service";
import { credentialsKey } from "@/lib/vault/vault-key";
import { openPostgres } from "@/lib/db/client";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { runLoad, type LoadResult } from "./load";
import { paymentBody } from "./support";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MAX_INSTANCES = Number(process.env.BENCH_INSTANCES ?? 3);
const MERCHANTS = 8;
const KEYS_PER_MERCHANT = 6;
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
process.env.CREDENTIALS_KEY ??= randomBytes(32).toString("base64");
const AUTH_SECRET = randomBytes(32).toString("base64url");
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "warn";

for (const [name, value] of Object.entries({ BENCH_CONCURRENCY: CONCURRENCY, BENCH_SECONDS: SECONDS, BENCH_ROUNDS: ROUNDS, BENCH_INSTANCES: MAX_INSTANCES })) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number (got ${JSON.stringify(process.env[name])})`);
}

type Merchant = { account: string; keys: string[] };
type Child = { name: string; port: number; process: ChildProcess; output: () => string };

// ---------------------------------------------------------------------------------------------
// Cleanup: whatever was started is ended, and the database dropped, once, however the run ends.

const children: Child[] = [];
let dropDatabase: (() => Promise<void>) | undefined;
/** Process ids of the PostgreSQL backends serving the bench database (for the CPU columns). */
let backendPids: () => Promise<number[]> = async () => [];
let cleaning: Promise<void> | undefined;

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the child's process group (the instance drains and stops its workers), SIGKILL after 15 s. */
async function stopGroup(child: Child): Promise<void> {
  const pid = child.process.pid;
  if (!pid || !groupAlive(pid)) return;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + 15_000;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (groupAlive(pid)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
}

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await Promise.all(children.map(stopGroup));
    if (dropDatabase) {
      try {
        await dropDatabase();
      } catch (error) {
        console.error(`Could not drop the bench database: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleaning;
}

let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the instances and dropping the bench database…`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Database, seed, processes.

/** A throwaway database on the PostgreSQL server of ADMIN_URL; its URL, and how to drop it. */
async function createDatabase(): Promise<string> {
  const { default: postgres } = await import("postgres");
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const name = `bench_scale_${randomBytes(5).toString("hex")}`;
  try {
    await admin.unsafe(`create database "${name}"`);
  } catch (error) {
    await admin.end();
    throw error;
  }
  backendPids = async () => (await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${name}`).map((row) => row.pid);
  dropDatabase = async () => {
    try {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.end();
    }
  };
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.href;
}

/** Migrations (once, before any instance), then merchants with keys and a connection for the payment service. */
async function migrateAndSeed(url: string): Promise<Merchant[]> {
  const handle = await openPostgres(url, { max: 2 });
  try {
    const merchants: Merchant[] = [];
    for (let m = 0; m < MERCHANTS; m++) {
      const account = `scale-${m}-${randomBytes(3).toString("hex")}`;
      const created = await createMerchantWithOwner(handle.db, {
        email: `${account}@example.com`,
        password: "bench-password-1",
        name: `Bench ${m}`,
        merchantName: `Bench ${m}`,
        commerceAccount: account,
      });
      if (!created.ok) throw new Error(`seed merchant: ${JSON.stringify(created.problems)}`);
      const merchantId = created.value.merchant.id;
      const keys: string[] = [];
      for (let k = 0; k < KEYS_PER_MERCHANT; k++) keys.push((await createApiKey(handle.db, { merchantId, name: `bench ${k}` })).key);
      const input = createConnectionSchema.parse({
        provider: "provider-b",
        kind: "h2h",
        label: "B",
        mode: "test",
        credentials: sampleCredentials("provider-b", "h2h", "test"),
      });
      const connection = await createConnection({ db: handle.db, merchantId, actor: { label: "bench" }, vaultKey: credentialsKey() }, input);
      if (!connection.ok) throw new Error(`seed connection: ${JSON.stringify(connection.problems)}`);
      merchants.push({ account, keys });
    }
    return merchants;
  } finally {
    await handle.close();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `node --import tsx …`: one process, no npx or tsx launcher in between, in a process group of its
 * own (detached) so the bench ends it whole, and so a Ctrl-C in the terminal reaches only the bench,
 * which then stops it in order.
 */
function spawnNode(name: string, port: number, args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, ["--import", "tsx", "--import", "./scripts/register-server-only.mjs", ...args], {
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const entry: Child = { name, port, process: child, output: () => output };
  children.push(entry);
  return entry;
}

async function waitFor(child: Child, ready: () => Promise<boolean>, seconds = 120): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) throw new Error(`${child.name} exited early:\n${child.output()}`);
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${child.name} did not start within ${seconds} s:\n${child.output()}`);
}

async function startInstance(index: number, databaseUrl: string): Promise<Child> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(`${os.tmpdir()}/po-scale-${index}-`);
  const child = spawnNode(`instance ${index}`, port, ["server.ts"], {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    APP_URL: url,
    AUTH_SECRET,
    LOG_LEVEL,
    // Behind the balancer: the client address is the one it appends to X-Forwarded-For.
    TRUST_PROXY_HOPS: "1",
    ...(index === 1 ? {} : { JOBS_WORKERS: "off" }),
  });
  child.process.on("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));
  await waitFor(child, async () => (await fetch(`${url}/api/commerce/openapi.json`, { signal: AbortSignal.timeout(5_000) })).ok);
  return child;
}

async function startBalancerProcess(targets: Child[]): Promise<Child> {
  const child = spawnNode(`balancer over ${targets.length}`, 0, ["bench/lb.ts", ...targets.map((t) => String(t.port))], {});
  await waitFor(
    child,
    async () => {
      const match = /listening (\d+)/.exec(child.output());
      if (match) child.port = Number(match[1]);
      return Boolean(match);
    },
    60,
  );
  return child;
}

// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc (Linux): seconds of CPU per process, and busy time of the whole machine.

const TICKS = 100; // USER_HZ on Linux

function processCpuSeconds(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime
  } catch {
    return NaN;
  }
}

function machineBusySeconds(): number {
  try {
    const [, ...values] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = values.map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS;
  } catch {
    return NaN;
  }
}

type CpuSample = { instances: number; balancer: number; postgres: number; generator: number; machine: number };
type CpuReading = Omit<CpuSample, "postgres"> & { backends: Map<number, number> };

async function cpuNow(instances: Child[], balancer: Child | undefined): Promise<CpuReading> {
  const own = process.cpuUsage();
  const pids = await backendPids().catch(() => []);
  return {
    instances: instances.reduce((sum, child) => sum + processCpuSeconds(child.process.pid), 0),
    balancer: balancer ? processCpuSeconds(balancer.process.pid) : 0,
    backends: new Map(pids.map((pid) => [pid, processCpuSeconds(pid)])),
    generator: (own.user + own.system) / 1e6,
    machine: machineBusySeconds(),
  };
}

/** CPU cores busy on average between two readings; a backend that started meanwhile counts from 0. */
function cpuBetween(before: CpuReading, after: CpuReading, seconds: number): CpuSample {
  let postgres = 0;
  for (const [pid, total] of after.backends) if (Number.isFinite(total)) postgres += total - (before.backends.get(pid) ?? 0);
  return {
    instances: (after.instances - before.instances) / seconds,
    balancer: (after.balancer - before.balancer) / seconds,
    postgres: postgres / seconds,
    generator: (after.generator - before.generator) / seconds,
    machine: (after.machine - before.machine) / seconds,
  };
}

// ---------------------------------------------------------------------------------------------
// Load.

/** Client c holds key c/8 of merchant c%8: every merchant gets its share of the load, over several keys. */
function clientOf(merchants: Merchant[], client: number) {
  const merchant = merchants[client % merchants.length]!;
  const key = merchant.keys[Math.floor(client / merchants.length) % merchant.keys.length]!;
  return { merchant, headers: { "content-type": "application/vnd.api+json", accept: "application/vnd.api+json", authorization: `Bearer ${key}` } };
}

type Config = { name: string; port: number; instances: Child[]; balancer?: Child };
type Measured = LoadResult & { cpu: CpuSample };

async function measure(config: Config, merchants: Merchant[], concurrency: number, seconds: number): Promise<Measured> {
  const before = await cpuNow(config.instances, config.balancer);
  const result = await runLoad({
    port: config.port,
    path: "/api/commerce/payment-invoices",
    concurrency,
    seconds,
    headers: (client) => clientOf(merchants, client).headers,
    body: (_n, client) => paymentBody(clientOf(merchants, client).merchant.account),
    expect: [201],
  });
  const after = await cpuNow(config.instances, config.balancer);
  return { ...result, cpu: cpuBetween(before, after, result.seconds) };
}

const signed = (value: number) => `${value >= 0 ? "+" : ""}${value.toFixed(1)}`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function summary(results: Measured[]) {
  return {
    throughput: median(results.map((r) => r.throughput)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    requests: results.reduce((n, r) => n + r.requests, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    statuses: results.reduce<Record<string, number>>((all, r) => {
      for (const [status, count] of Object.entries(r.statuses)) all[status] = (all[status] ?? 0) + count;
      return all;
    }, {}),
    cpu: {
      instances: median(results.map((r) => r.cpu.instances)),
      balancer: median(results.map((r) => r.cpu.balancer)),
      postgres: median(results.map((r) => r.cpu.postgres)),
      generator: median(results.map((r) => r.cpu.generator)),
      machine: median(results.map((r) => r.cpu.machine)),
    },
  };
}

async function main(): Promise<void> {
  if (!fs.existsSync(".next/BUILD_ID")) throw new Error("Run `npx next build` first: the instances serve the production build.");
  const databaseUrl = await createDatabase();
  process.env.DATABASE_URL = databaseUrl; // the vault key lookup in this process reads it (not embedded)
  console.log(`Throwaway database ${new URL(databaseUrl).pathname.slice(1)}: migrating and seeding ${MERCHANTS} merchants x ${KEYS_PER_MERCHANT} keys…`);
  const merchants = await migrateAndSeed(databaseUrl);

  const instances: Child[] = [];
  // One at a time: each start loads the build and checks the migrations; the machine is small.
  for (let i = 1; i <= MAX_INSTANCES; i++) {
    instances.push(await startInstance(i, databaseUrl));
    console.log(`instance ${i} ready on port ${instances[i - 1]!.port}${i === 1 ? " (job workers)" : " (JOBS_WORKERS=off)"}`);
  }
  const configs: Config[] = [{ name: "1 instance, direct", port: instances[0]!.port, instances: instances.slice(0, 1) }];
  for (let n = 1; n <= MAX_INSTANCES; n++) {
    const balancer = await startBalancerProcess(instances.slice(0, n));
    configs.push({ name: `${n} instance${n > 1 ? "s" : ""} via balancer`, port: balancer.port, instances: instances.slice(0, n), balancer });
  }

  // Warm-up: JIT, connection pools and caches of every instance and balancer.
  for (const config of configs) await measure(config, merchants, 10, 2);

  const results = new Map<Config, Measured[]>(configs.map((config) => [config, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = configs.map((_, i) => configs[(i + round) % configs.length]!);
    for (const config of order) {
      const measured = await measure(config, merchants, CONCURRENCY, SECONDS);
      results.get(config)!.push(measured);
      console.log(`  round ${round + 1}  ${config.name.padEnd(24)} ${measured.throughput.toFixed(0).padStart(6)} req/s  p99 ${measured.p99.toFixed(1)} ms`);
    }
  }

  const summaries = configs.map((config) => ({ config, s: summary(results.get(config)!) }));
  const oneViaBalancer = summaries[1]!.s;
  const direct = summaries[0]!.s;
  console.log(
    `\nCreate payment on one PostgreSQL, ${CONCURRENCY} closed-loop clients over ${MERCHANTS} merchants x ${KEYS_PER_MERCHANT} keys, ` +
      `${ROUNDS} rounds of ${SECONDS} s per configuration (medians), ${os.cpus().length} CPU cores shared by everything below:\n`,
  );
  const row = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(26) : cell.padStart(i < 5 ? 8 : 7))).join(" ");
  const cpuCells = (cells: string[]) => cells.map((cell, i) => cell.padStart(i >= 4 ? 7 : 5)).join(" ");
  console.log(`${row(["", "", "", "", ""])}   CPU cores busy (medians)`);
  console.log(
    `${row(["configuration", "req/s", "x 1 inst", "p50 ms", "p99 ms"])}   ${cpuCells(["app", "LB", "pg", "load", "machine", "ms/req"])}   requests / errors`,
  );
  for (const { config, s } of summaries) {
    const cpu = [s.cpu.instances, s.cpu.balancer, s.cpu.postgres, s.cpu.generator, s.cpu.machine].map((v, i) =>
      i === 1 && !config.balancer ? "-" : v.toFixed(2),
    );
    // CPU time the bench's own processes spent per request answered.
    cpu.push((((s.cpu.instances + s.cpu.balancer + s.cpu.postgres + s.cpu.generator) / s.throughput) * 1000).toFixed(2));
    console.log(
      `${row([config.name, s.throughput.toFixed(0), (s.throughput / oneViaBalancer.throughput).toFixed(2), s.p50.toFixed(1), s.p99.toFixed(1)])}   ` +
        `${cpuCells(cpu)}   ${s.requests} / ${s.errors}`,
    );
  }
  console.log(
    `\nBalancer overhead (1 instance through it vs direct): throughput ${(oneViaBalancer.throughput / direct.throughput).toFixed(2)}x, ` +
      `p50 ${signed(oneViaBalancer.p50 - direct.p50)} ms, p99 ${signed(oneViaBalancer.p99 - direct.p99)} ms, the balancer process itself ${oneViaBalancer.cpu.balancer.toFixed(2)} CPU cores.`,
  );
  console.log(
    "x 1 inst: against 1 instance through the balancer. CPU: app = the instances in use, LB = the balancer, pg = PostgreSQL backends of the bench database, " +
      "load = this process (the load generator), machine = every process on the host (other work included), in cores busy on average; " +
      "ms/req = CPU milliseconds of app + LB + pg + load per request answered.",
  );
  const cores = os.cpus().length;
  const saturated = summaries.filter(({ s }) => s.cpu.machine >= 0.9 * cores);
  if (saturated.length) {
    const own = (s: (typeof summaries)[number]["s"]) => s.cpu.instances + s.cpu.balancer + s.cpu.postgres + s.cpu.generator;
    console.log(
      `The machine was CPU-bound (${saturated.map(({ s }) => s.cpu.machine.toFixed(2)).join(", ")} of ${cores} cores busy) in ${saturated.length} of ${summaries.length} configurations: ` +
        `more instances cannot add throughput beyond the cores, only take a larger share of them. This bench's own processes (app, LB, pg, load) used ` +
        `${summaries.map(({ s }) => own(s).toFixed(2)).join(" / ")} cores in the configurations above (in order); the rest went to other work on the host.`,
    );
  }
  const failed = summaries.filter(({ s }) => s.errors > 0);
  for (const { config, s } of failed) console.log(`${config.name}: answers other than 201: ${JSON.stringify(s.statuses)}`);
  if (failed.length) process.exitCode = 1;
}

let failure: unknown;
try {
  await main();
} catch (error) {
  failure = error;
} finally {
  await cleanup();
}
if (failure) {
  console.error(failure instanceof Error ? (failure.stack ?? failure.message) : failure);
  process.exitCode = 1;
}
// Everything this run started is stopped and its database dropped: nothing left to wait for.
process.exit(process.exitCode ?? 0);

/**
 * `npm run bench:api` (also `npm run bench`): the invoice API under load, through the app
 * (`server.ts`, production build) beside two bare node:http baselines started in the same run:
 *   floor      bench/floor-server.ts: JSON.parse, a hand check of the required fields, one jsonb insert
 *              into a table with one unique index; select by id; a simple filtered select.
 *   same-work  bench/bare-server.ts: the app's validation, hash, customer resolution and insert, and
 *              its read functions, without framework, auth or rate limit.
 * Endpoints: create payment, create payout, GET by id, list with a filter. Load is spread over
 * BENCH_MERCHANTS merchants (8) with BENCH_KEYS keys each (6), as integrations would hold them; the
 * rate limits stay at their defaults. BENCH_CONCURRENCY closed-loop clients (50), BENCH_ROUNDS rounds
 * (3) of BENCH_SECONDS (5) per endpoint, the three servers taking turns within each round so they see
 * the same machine noise; medians over rounds. Then an open-loop create run at half of the app's own
 * closed-loop create throughput (BENCH_OPEN_SECONDS, 10) reports the app's p50/p99.
 *
 * Embedded PGlite by default (one directory per server); BENCH_DATABASE_URL=postgres://…/any runs
 * every server on PostgreSQL, each in a throwaway database created here and dropped at the end.
 * BENCH_ENDPOINTS=create-payment,get… picks endpoints; BENCH_CPU_PROF=dir writes a CPU profile of
 * the app server (node --cpu-prof) when it stops. BENCH_MEMORY_CREATES=100000 then keeps creating
 * payments on the app (closed loop) and reports its RSS after a tenth of them and after all of them.
 * BENCH_WITHOUT_LOG=1 adds a fourth server to the rounds, `app-no-log`: the same app with
 * bench/request-log-off.mjs preloaded, which keeps the request log's writer from keeping anything,
 * so `app/no-log` is what writing the log costs the app (its capture on the request, a few object
 * fields, is left in both), and the open loop runs on both at the same rate.
 * Needs `next build` first.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
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
import { runLoad, runOpenLoop, type LoadResult } from "./load";
import { summarise } from "./profile-summary";
import { describeRunConditions, median, paymentBody, startRunConditions } from "./support";

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MERCHANTS = Number(process.env.BENCH_MERCHANTS ?? 8);
const KEYS_PER_MERCHANT = Number(process.env.BENCH_KEYS ?? 6);
const OPEN_SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 10);
const CPU_PROF = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : "";
const ENDPOINTS = (process.env.BENCH_ENDPOINTS ?? "create-payment,create-payout,get,list").split(",").map((name) => name.trim());
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "";
const MEMORY_CREATES = Number(process.env.BENCH_MEMORY_CREATES ?? 0);
const WITHOUT_LOG = process.env.BENCH_WITHOUT_LOG === "1";
process.env.CREDENTIALS_KEY ??= randomBytes(32).toString("base64");
const AUTH_SECRET = randomBytes(32).toString("base64url");

type ServerName = "app" | "app-no-log" | "floor" | "same-work";
const SERVERS: ServerName[] = WITHOUT_LOG ? ["app", "app-no-log", "same-work", "floor"] : ["app", "same-work", "floor"];
const PORTS: Record<ServerName, number> = { app: 3501, "same-work": 3502, floor: 3503, "app-no-log": 3504 };
type Merchant = { id: string; account: string; keys: string[] };

/** PostgreSQL: one throwaway database per server, dropped at the end whatever happens. */
async function throwawayDatabases(): Promise<{ urls: Record<ServerName, string>; drop: () => Promise<void> }> {
  const { default: postgres } = await import("postgres");
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const suffix = randomBytes(4).toString("hex");
  const names = Object.fromEntries(SERVERS.map((name) => [name, `bench_api_${suffix}_${name.replace("-", "_")}`])) as Record<ServerName, string>;
  for (const name of Object.values(names)) await admin.unsafe(`create database "${name}"`);
  const urlOf = (database: string) => {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    return url.href;
  };
  return {
    urls: Object.fromEntries(SERVERS.map((name) => [name, urlOf(names[name])])) as Record<ServerName, string>,
    drop: async () => {
      for (const name of Object.values(names)) await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** Merchants with keys and a connection for each bench service (payment EUR hosted page, payout UAH). */
async function seed(where: { dir?: string; url?: string }): Promise<Merchant[]> {
  const handle = where.url ? await openPostgres(where.url) : await openEmbedded(where.dir!);
  try {
    const merchants: Merchant[] = [];
    for (let m = 0; m < MERCHANTS; m++) {
      const account = `bench-${m}-${randomBytes(3).toString("hex")}`;
      const created = await createMerchantWithOwner(handle.db, {
        email: `${account}@example.com`,
        password: "bench-password-1",
        name: "Bench",
        merchantName: `Bench ${m}`,
        commerceAccount: account,
      });
      if (!created.ok) throw new Error("seed merchant");
      const merchantId = created.value.merchant.id;
      const keys: string[] = [];
      for (let k = 0; k < KEYS_PER_MERCHANT; k++) keys.push((await createApiKey(handle.db, { merchantId, name: `bench ${k}` })).key);
      const scope = { db: handle.db, merchantId, actor: { label: "bench" }, vaultKey: Buffer.from(process.env.CREDENTIALS_KEY!, "base64") };
      for (const [provider, label] of [
        ["provider-b", "B"],
        ["provider-a", "A"],
      ] as const) {
        const input = createConnectionSchema.parse({ provider, kind: "h2h", label, mode: "test", credentials: sampleCredentials(provider, "h2h", "test") });
        if (!(await createConnection(scope, input)).ok) throw new Error(`seed connection ${provider}`);
      }
      merchants.push({ id: merchantId, account, keys });
    }
    return merchants;
  } finally {
    await handle.close();
  }
}

/** Started with node itself (no npx or tsx wrapper in between), so a signal reaches the server. */
function start(name: ServerName, script: string, env: Record<string, string>, logFile: string, preload: string[] = []): Promise<ChildProcess> {
  const profile = name === "app" && CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", CPU_PROF] : [];
  const log = fs.openSync(logFile, "a");
  const imports = ["tsx", "./scripts/register-server-only.mjs", ...preload].flatMap((module) => ["--import", module]);
  const child = spawn(process.execPath, [...profile, ...imports, script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", log],
  });
  fs.closeSync(log);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 120_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      if (/ready|listening/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}; see ${logFile}`));
    });
  });
}

/** SIGTERM (the app drains and stops its job workers; a CPU profile is written then), SIGKILL after 30 s. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners("exit");
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

function payoutBody(account: string) {
  return JSON.stringify({
    data: {
      type: "payout-invoice",
      attributes: {
        service: "payment_card_uah",
        commerce_account: account,
        currency: "UAH",
        amount: 250.75,
        reference_id: randomUUID(),
        test_mode: true,
        fields: { card_number: "411111******1111" },
        options: { attempts_limit: 5, split_mode: false, allow_partially: false, auto_process: false },
        customer: { name: "Ada", email: "ada@example.com", address: { country: "GB", city: "London" } },
      },
    },
  });
}

/** Resident memory of a server process, in MiB (ps reports KiB). */
function rssMb(child: ChildProcess): number {
  return (
    Number(
      execFileSync("ps", ["-o", "rss=", "-p", String(child.pid)])
        .toString()
        .trim(),
    ) / 1024
  );
}

type Endpoint = {
  name: string;
  method: string;
  expect: number[];
  path: (server: ServerName, merchant: Merchant) => string;
  body?: (merchant: Merchant) => string;
};

/** Ids created through each server before the read rounds, per merchant account. */
const knownIds: Record<ServerName, Map<string, string[]>> = { app: new Map(), "app-no-log": new Map(), "same-work": new Map(), floor: new Map() };
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)]!;

const ENDPOINT_TABLE: Endpoint[] = [
  { name: "create-payment", method: "POST", expect: [201], path: () => "/api/commerce/payment-invoices", body: (m) => paymentBody(m.account) },
  { name: "create-payout", method: "POST", expect: [201], path: () => "/api/commerce/payout-invoices", body: (m) => payoutBody(m.account) },
  { name: "get", method: "GET", expect: [200], path: (server, m) => `/api/commerce/payment-invoices/${pick(knownIds[server].get(m.account)!)}` },
  {
    name: "list",
    method: "GET",
    expect: [200],
    path: (server) =>
      server === "floor" ? "/api/commerce/payment-invoices?currency=EUR" : "/api/commerce/payment-invoices?filter[status]=created&page[size]=20",
  },
];

/** Client c holds key c/MERCHANTS of merchant c%MERCHANTS: every merchant gets its share, over several keys. */
function clientOf(merchants: Merchant[], client: number) {
  const merchant = merchants[client % merchants.length]!;
  const key = merchant.keys[Math.floor(client / merchants.length) % merchant.keys.length]!;
  return {
    merchant,
    headers: {
      "content-type": "application/vnd.api+json",
      accept: "application/vnd.api+json",
      authorization: `Bearer ${key}`,
      "x-bench-account": merchant.account,
    },
  };
}

async function collectIds(server: ServerName, merchants: Merchant[]) {
  for (const merchant of merchants) {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const answer = await fetch(`http://127.0.0.1:${PORTS[server]}/api/commerce/payment-invoices`, {
        method: "POST",
        headers: clientOf(merchants, merchants.indexOf(merchant)).headers,
        body: paymentBody(merchant.account),
      });
      const document = (await answer.json()) as { data?: { id?: string } };
      if (answer.status !== 201 || !document.data?.id) throw new Error(`${server}: seeding a payment answered ${answer.status}`);
      ids.push(document.data.id);
    }
    knownIds[server].set(merchant.account, ids);
  }
}

type Summary = { throughput: number; p50: number; p99: number; errors: number; requests: number; statuses: Record<number, number> };

function summary(results: LoadResult[]): Summary {
  const statuses: Record<number, number> = {};
  for (const r of results) for (const [status, count] of Object.entries(r.statuses)) statuses[Number(status)] = (statuses[Number(status)] ?? 0) + count;
  return {
    throughput: median(results.map((r) => r.throughput)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    errors: results.reduce((n, r) => n + r.errors, 0),
    requests: results.reduce((n, r) => n + r.requests, 0),
    statuses,
  };
}

async function main() {
  if (!fs.existsSync(".next/BUILD_ID")) throw new Error("Run `npx next build` first.");
  const conditions = startRunConditions(ADMIN_URL ? "PostgreSQL" : "embedded PGlite");
  if (CPU_PROF) fs.mkdirSync(CPU_PROF, { recursive: true });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "po-bench-api-"));
  const databases = ADMIN_URL ? await throwawayDatabases() : undefined;
  const children: ChildProcess[] = [];
  const results = new Map<string, Record<ServerName, LoadResult[]>>();
  const open: Partial<Record<ServerName, LoadResult>> = {};
  let openRate = 0;
  const memory: { creates: number; rssMb: number }[] = [];
  const appWindows: [number, number][] = [];
  try {
    const where = (name: ServerName) => (databases ? { url: databases.urls[name] } : { dir: path.join(root, name) });
    for (const name of SERVERS) fs.mkdirSync(path.join(root, name), { recursive: true });
    const appMerchants = await seed(where("app"));
    const noLogMerchants = WITHOUT_LOG ? await seed(where("app-no-log")) : [];
    const sameMerchants = await seed(where("same-work"));
    // The floor has no merchants of its own: its rows carry the account they were sent with.
    const floorMerchants = appMerchants;
    const merchantsOf: Record<ServerName, Merchant[]> = { app: appMerchants, "app-no-log": noLogMerchants, "same-work": sameMerchants, floor: floorMerchants };
    const common = (name: ServerName) => ({ DATA_DIR: path.join(root, name), DATABASE_URL: databases?.urls[name] ?? "", PORT: String(PORTS[name]) });
    const appEnv = (name: ServerName) => ({ ...common(name), NODE_ENV: "production", AUTH_SECRET, HOSTNAME: "127.0.0.1" });
    children.push(await start("app", "server.ts", appEnv("app"), path.join(root, "app.log")));
    if (WITHOUT_LOG) {
      children.push(await start("app-no-log", "server.ts", appEnv("app-no-log"), path.join(root, "app-no-log.log"), ["./bench/request-log-off.mjs"]));
    }
    children.push(
      await start(
        "same-work",
        "bench/bare-server.ts",
        { ...common("same-work"), BENCH_MERCHANTS: JSON.stringify(sameMerchants.map((m) => [m.account, m.id])) },
        path.join(root, "same-work.log"),
      ),
    );
    children.push(await start("floor", "bench/floor-server.ts", common("floor"), path.join(root, "floor.log")));

    const load = async (server: ServerName, endpoint: Endpoint, concurrency = CONCURRENCY, seconds = SECONDS) => {
      const merchants = merchantsOf[server];
      const from = Number(process.hrtime.bigint() / 1000n);
      const result = await runLoad({
        port: PORTS[server],
        method: endpoint.method,
        path: (_n, client) => endpoint.path(server, clientOf(merchants, client).merchant),
        body: endpoint.body && ((_n, client) => endpoint.body!(clientOf(merchants, client).merchant)),
        headers: (client) => clientOf(merchants, client).headers,
        concurrency,
        seconds,
        expect: endpoint.expect,
      });
      // The profiler's clock is the same monotonic clock in microseconds: bench/profile-summary.ts cuts to these.
      if (server === "app") appWindows.push([from, Number(process.hrtime.bigint() / 1000n)]);
      return result;
    };

    for (const server of SERVERS) await collectIds(server, merchantsOf[server]);
    for (const endpoint of ENDPOINT_TABLE.filter((e) => ENDPOINTS.includes(e.name))) {
      const perServer = Object.fromEntries(SERVERS.map((server) => [server, []])) as unknown as Record<ServerName, LoadResult[]>;
      // Warm-up: JIT, connection pools, caches; not counted.
      for (const server of SERVERS) await load(server, endpoint, 10, 2);
      for (let round = 0; round < ROUNDS; round++) {
        // Each round starts with another server, so none always runs right after the same neighbour.
        for (let i = 0; i < SERVERS.length; i++) {
          const server = SERVERS[(round + i) % SERVERS.length]!;
          perServer[server].push(await load(server, endpoint));
        }
      }
      results.set(endpoint.name, perServer);
    }

    if (OPEN_SECONDS > 0 && results.has("create-payment")) {
      // Half of the app's own closed-loop maximum, not a share of the baseline's: the rate follows this server on this
      // machine, and at half its maximum the tail shows how it serves, not how long a queue it builds when saturated.
      openRate = Math.max(1, Math.round(summary(results.get("create-payment")!.app).throughput / 2));
      for (const server of SERVERS.filter((name) => name.startsWith("app"))) {
        open[server] = await runOpenLoop({
          port: PORTS[server],
          method: "POST",
          path: "/api/commerce/payment-invoices",
          body: (_n, client) => paymentBody(clientOf(merchantsOf[server], client).merchant.account),
          headers: (client) => clientOf(merchantsOf[server], client).headers,
          clients: CONCURRENCY,
          rate: openRate,
          seconds: OPEN_SECONDS,
          expect: [201],
        });
      }
    }

    if (MEMORY_CREATES > 0) {
      const endpoint = ENDPOINT_TABLE[0]!;
      const marks = [Math.round(MEMORY_CREATES / 10), MEMORY_CREATES];
      let created = 0;
      for (const mark of marks) {
        while (created < mark) {
          const seconds = Math.max(1, Math.min(10, Math.ceil((mark - created) / 400)));
          const run = await load("app", endpoint, CONCURRENCY, seconds);
          created += run.requests - run.errors;
        }
        memory.push({ creates: created, rssMb: rssMb(children[0]!) });
      }
    }
  } finally {
    for (const child of children) await stop(child);
    await databases?.drop();
    fs.rmSync(root, { recursive: true, force: true });
  }

  const database = ADMIN_URL ? "PostgreSQL" : "embedded PGlite";
  console.log(
    `\nInvoice API on ${database}: ${CONCURRENCY} closed-loop clients over ${MERCHANTS} merchants x ${KEYS_PER_MERCHANT} keys, ` +
      `medians of ${ROUNDS} rounds of ${SECONDS}s (default rate limits)`,
  );
  console.log(`${describeRunConditions(conditions)}\n`);
  console.log(
    `${"endpoint".padEnd(16)}${SERVERS.map((s) => `${s} req/s (p99 ms)`.padStart(24)).join("")}   app/floor  app/same-work${WITHOUT_LOG ? "  app/no-log" : ""}`,
  );
  let failed = false;
  for (const [name, perServer] of results) {
    const s = Object.fromEntries(SERVERS.map((server) => [server, summary(perServer[server])])) as Record<ServerName, Summary>;
    const cells = SERVERS.map((server) => `${s[server].throughput.toFixed(0)} (${s[server].p99.toFixed(1)})`.padStart(24)).join("");
    console.log(
      `${name.padEnd(16)}${cells}   ${(s.app.throughput / s.floor.throughput).toFixed(2).padStart(9)}  ${(s.app.throughput / s["same-work"].throughput).toFixed(2).padStart(13)}` +
        (WITHOUT_LOG ? `${(s.app.throughput / s["app-no-log"].throughput).toFixed(3).padStart(12)}` : ""),
    );
    if (WITHOUT_LOG) {
      // Each round's own ratio (the two ran back to back there), then their median and spread.
      const ratios = perServer.app.map((run, n) => run.throughput / perServer["app-no-log"][n]!.throughput).sort((a, b) => a - b);
      console.log(
        `  app/no-log by round: median ${median(ratios).toFixed(3)}, from ${ratios[0]!.toFixed(3)} to ${ratios.at(-1)!.toFixed(3)} over ${ratios.length} rounds`,
      );
    }
    for (const server of SERVERS) {
      if (s[server].errors) {
        failed = true;
        console.log(`  ${server}: ${s[server].errors} of ${s[server].requests} answers unexpected, statuses ${JSON.stringify(s[server].statuses)}`);
      }
    }
  }
  for (const [server, run] of Object.entries(open)) {
    console.log(
      `\nOpen loop, create payment on the ${server} at ${openRate} req/s (half of the app's own closed-loop create throughput) for ${OPEN_SECONDS}s: ` +
        `p50 ${run.p50.toFixed(1)} ms, p99 ${run.p99.toFixed(1)} ms (goal p99 <= 50 ms), ${run.requests} requests, ${run.errors} errors`,
    );
    if (run.errors) failed = true;
  }
  if (memory.length === 2) {
    const [tenth, all] = memory as [{ creates: number; rssMb: number }, { creates: number; rssMb: number }];
    console.log(
      `\nMemory: app server RSS ${tenth.rssMb.toFixed(0)} MiB after ${tenth.creates} creates, ${all.rssMb.toFixed(0)} MiB after ${all.creates} ` +
        `(${((all.rssMb / tenth.rssMb - 1) * 100).toFixed(1)} %; goal within 10 %)`,
    );
  }
  if (CPU_PROF) {
    fs.writeFileSync(path.join(CPU_PROF, "windows.json"), JSON.stringify(appWindows));
    console.log(`\nCPU profile of the app server under load (closed-loop rounds only; bench/profile-summary.ts ${CPU_PROF}):`);
    for (const row of summarise(CPU_PROF)) console.log(`  ${row.layer.padEnd(40)}${`${(row.share * 100).toFixed(1)} %`.padStart(8)}`);
  }
  if (failed) process.exitCode = 1;
}

await main();

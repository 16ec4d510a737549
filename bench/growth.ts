/**
 * `npm run bench:growth`: one merchant grows to 10^3, 10^5 and 10^6 invoices
 * (bench/growth-seed.ts: attempts, status history and events, 50 other merchants holding more),
 * and at each size the read and write paths are timed in this process, as the server calls them:
 * create (createInvoice), GET by id, the API list with a filter (and its next page), the dashboard
 * invoice list (listDashboardInvoices, as /invoices and its refresh call it) with and without
 * filters, the home page's per-status counts, and the home page's overview (lib/analytics/overview.ts,
 * from the rollups, which `rebuildRollups` fills at each size as `npm run admin -- rebuild-rollups`
 * does: its seconds are reported) for the last 7, 30 and 365 days, each of its queries timed. Medians over GROWTH_REPS runs, the process's RSS
 * and heap, and the database size. At the largest size the EXPLAIN ANALYZE plan of each query goes
 * to bench/results/growth-plans-<pglite|postgres>.txt. The search box's query for each kind of key
 * (id, reference, provider reference, e-mail, name prefix, last four) is timed and explained too.
 * Then the CSV export goes through the real route on the production server (needs `next build`):
 * the merchant's live invoices are first topped up to GROWTH_EXPORT_ROWS (default the largest size;
 * seeded live only), and a live key exports every one of them with `Accept: text/csv` (a key sees
 * its own mode only): wall time, rows/s and the server's RSS before and at its peak, then once more
 * with the server's heap capped (GROWTH_EXPORT_HEAP_MB, default 160 MiB), which completes only if
 * the rows are not held (GROWTH_EXPORT=0 skips both). The server is stopped, and waited for, before
 * the throwaway database is dropped.
 *
 * Embedded PGlite in a temp directory by default; BENCH_DATABASE_URL=postgres://… creates a
 * throwaway database on that server and drops it after. GROWTH_SIZES=1000,100000 for a short run;
 * GROWTH_OTHERS (default 0.1): the other merchants' invoices as a fraction of the merchant's.
 * GROWTH_LOCK=/tmp/bench.lock holds that flock(1) lock while measuring only, not while seeding.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, desc, eq, sql, type SQLWrapper } from "drizzle-orm";
import { getOverview, overviewQueries, readPeriod } from "@/lib/analytics/overview";
import { rebuildRollups } from "@/lib/analytics/rollups";
import { countInvoicesByStatus } from "@/lib/dashboard/home";
import { openEmbedded, openPostgres, type Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { listDashboardInvoices } from "@/lib/invoices/read/dashboard-invoices";
import { readApiListQuery, readDashboardListQuery, type InvoiceListFilter } from "@/lib/invoices/read/filters";
import { getInvoice, getInvoiceQuery } from "@/lib/invoices/read/get-invoice";
import { selectInvoicesWithConnection } from "@/lib/invoices/read/invoice-select";
import { listInvoices, listInvoicesQuery, sortsByCodePoint } from "@/lib/invoices/read/list-invoices";
import { createApiKey } from "@/lib/api-keys/queries";
import { growTo, rowsOf, setUpGrowth, topUpMode, type GrowthContext } from "./growth-seed";
import { holdLock, median, paymentInvoice, startAppServer, stopAppServer } from "./support";
import { execFileSync } from "node:child_process";

process.env.LOG_LEVEL = "silent";
process.env.CREDENTIALS_KEY ??= randomBytes(32).toString("base64");

const SIZES = (process.env.GROWTH_SIZES ?? "1000,100000,1000000").split(",").map(Number);
const OTHERS = Number(process.env.GROWTH_OTHERS ?? 0.1);
const REPS = Number(process.env.GROWTH_REPS ?? 25);
/** Runs of the queries that read every row of the merchant (the home page's count, the list before the fix). */
const SLOW_REPS = Math.min(REPS, 5);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "";
const engine = ADMIN_URL ? "postgres" : "pglite";
/**
 * Rows the export streams: before it, the merchant's live invoices are topped up to this many
 * (seeded live only), and a live key exports them (a key sees its own mode's invoices only).
 */
const EXPORT_ROWS = Number(process.env.GROWTH_EXPORT_ROWS ?? Math.max(...SIZES));
/** The export's second run: the server's old-space heap capped at this many MiB (--max-old-space-size). */
const CAPPED_HEAP_MB = Number(process.env.GROWTH_EXPORT_HEAP_MB ?? 160);

async function timed(reps: number, run: (i: number) => Promise<unknown>, warmUp = 3): Promise<number> {
  for (let i = 0; i < warmUp; i++) await run(reps + i); // warm-up: plans, caches, JIT
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** The list as it was before fec4925: one ORDER BY over all of the merchant's invoices of the mode. */
function singleOrderByQuery(db: Db, merchantId: string, testMode: boolean) {
  return selectInvoicesWithConnection(db, merchantId)
    .where(and(eq(invoices.merchantId, merchantId), eq(invoices.testMode, testMode)))
    .orderBy(desc(invoices.createdAt), desc(invoices.id))
    .limit(26);
}

/** The home page's count (lib/dashboard/home.ts countInvoicesByStatus), written out for EXPLAIN. */
function countQuery(db: Db, merchantId: string) {
  return db
    .select({ status: invoices.status, count: sql<number>`count(*)::int` })
    .from(invoices)
    .where(and(eq(invoices.merchantId, merchantId), eq(invoices.testMode, true)))
    .groupBy(invoices.status);
}

type Sample = { id: string; direction: "payment" | "payout"; referenceId: string };

async function sampleInvoices(db: Db, merchantId: string, total: number): Promise<Sample[]> {
  const percent = Math.min(100, (100 * 20 * REPS) / total);
  const rows = rowsOf<{ id: string; direction: "payment" | "payout"; reference_id: string }>(
    await db.execute(
      sql`select id, direction, reference_id from invoices tablesample bernoulli(${percent}) where merchant_id = ${merchantId} limit ${REPS * 4}`,
    ),
  );
  return rows.map((r) => ({ id: r.id, direction: r.direction, referenceId: r.reference_id }));
}

function apiFilter(query: string, direction: "payment" | "payout"): InvoiceListFilter {
  const read = readApiListQuery(new URLSearchParams(query), direction);
  if (!read.ok) throw new Error(`bad API query ${query}`);
  return read.value;
}

const dashboardFilter = (query: Record<string, string>, viewMode: "test" | "live") => readDashboardListQuery(query, { viewMode }).filter;

type Figures = Record<string, number>;

type SearchSample = {
  id: string;
  referenceId: string;
  testMode: boolean;
  email: string;
  name: string;
  lastFour: string | null;
  providerReference: string | null;
};

/** Invoices of the merchant to search for, with each of their keys (lib/invoices/read/search.ts). */
async function searchSamples(db: Db, merchantId: string, total: number): Promise<SearchSample[]> {
  const percent = Math.min(100, (100 * 40 * REPS) / total);
  return rowsOf<{
    id: string;
    reference_id: string;
    test_mode: boolean;
    email: string;
    name: string;
    last_four: string | null;
    provider_reference: string | null;
  }>(
    await db.execute(sql`
      select i.id, i.reference_id, i.test_mode, i.resolved_customer ->> 'email' as email, i.resolved_customer ->> 'name' as name,
        i.card_last_four as last_four,
        (select a.provider_reference from invoice_attempts a where a.invoice_id = i.id and a.provider_reference is not null limit 1) as provider_reference
      from invoices i tablesample bernoulli(${percent}) where i.merchant_id = ${merchantId} limit ${REPS * 8}`),
  ).map((r) => ({
    id: r.id,
    referenceId: r.reference_id,
    testMode: r.test_mode,
    email: r.email,
    name: r.name,
    lastFour: r.last_four,
    providerReference: r.provider_reference,
  }));
}

/** The search box's query for `q` in the sample's Test/Live view, as /invoices?q=… reads it. */
const searchFilter = (q: string, testMode: boolean) => readDashboardListQuery({ q }, { viewMode: testMode ? "test" : "live" }).filter;

/** Each kind of key: the text searched for one sample (undefined: the sample has no such key). */
const SEARCHES: [string, string, (s: SearchSample) => string | null | undefined][] = [
  ["searchId", "search id", (s) => s.id],
  ["searchReference", "search reference", (s) => s.referenceId],
  ["searchProviderReference", "search provider ref", (s) => s.providerReference],
  ["searchEmail", "search e-mail", (s) => s.email.toUpperCase()],
  ["searchName", "search name", (s) => s.name.toLowerCase()],
  ["searchNameBroad", "search name 'Ada'", () => "Ada"],
  // A prefix of 1 customer in 200: too rare for the newest invoices to hold a page, so the name index reads every match.
  ["searchNameMid", "search name 'Ada 0'", () => "Ada 0"],
  ["searchLastFour", "search last four", (s) => s.lastFour],
];

/** Searches for one text, not for a sample's key: their results need not hold the sample. */
const FIXED_TEXT = new Set(["searchNameBroad", "searchNameMid"]);

async function measure(db: Db, ctx: GrowthContext, total: number): Promise<{ figures: Figures; queries: Record<string, SQLWrapper> }> {
  const merchant = { id: ctx.merchantId, commerceAccount: ctx.commerceAccount };
  const samples = await sampleInvoices(db, ctx.merchantId, total);
  const pick = (i: number) => samples[i % samples.length]!;
  const apiProcessed = apiFilter("filter[status]=processed&page[size]=25", "payment");
  const firstPage = await listInvoices(db, ctx.merchantId, apiProcessed);
  const apiPage2 = apiFilter(`filter[status]=processed&page[size]=25&page[after]=${firstPage.nextCursor}`, "payment");
  const apiRare = apiFilter("filter[status]=process_error&page[size]=25", "payout");
  const apiNone = apiFilter("filter[status]=refunding&page[size]=25", "payment");
  const dashTest = dashboardFilter({}, "test");
  const dashLive = dashboardFilter({}, "live");
  const dashTypeStatus = dashboardFilter({ type: "payout", status: "process_failed" }, "live");
  const reference = pick(0).referenceId.slice(0, 8);
  const dashReference = dashboardFilter({ reference }, "live");
  const options = { codePointOrder: await sortsByCodePoint(db) };
  const queries: Record<string, SQLWrapper> = {
    "GET by id": getInvoiceQuery(db, ctx.merchantId, pick(0).direction, pick(0).id),
    "API list filter[status]=processed (payments)": listInvoicesQuery(db, ctx.merchantId, apiProcessed, options),
    "API list filter[status]=processed, page 2 (cursor)": listInvoicesQuery(db, ctx.merchantId, apiPage2, options),
    "API list filter[status]=process_error (payouts, 1%)": listInvoicesQuery(db, ctx.merchantId, apiRare, options),
    "API list filter[status]=refunding (payments, none)": listInvoicesQuery(db, ctx.merchantId, apiNone, options),
    "dashboard list, Test view": listInvoicesQuery(db, ctx.merchantId, dashTest, options),
    "dashboard list, Live view": listInvoicesQuery(db, ctx.merchantId, dashLive, options),
    "dashboard list, payouts + process_failed": listInvoicesQuery(db, ctx.merchantId, dashTypeStatus, options),
    [`dashboard list, reference prefix "${reference}"`]: listInvoicesQuery(db, ctx.merchantId, dashReference, options),
    "home page counts by status (Test view)": countQuery(db, ctx.merchantId),
    "before: one ORDER BY over the mode (Live view)": singleOrderByQuery(db, ctx.merchantId, false),
  };
  const periods = {
    week: readPeriod({ period: "7d" }).period,
    month: readPeriod({ period: "30d" }).period,
    year: readPeriod({ period: "custom", from: new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10), to: new Date().toISOString().slice(0, 10) })
      .period,
  };
  const monthQueries = overviewQueries(ctx.merchantId, "live", periods.month);
  const yearQueries = overviewQueries(ctx.merchantId, "live", periods.year);
  queries["overview 30 days (Live): grouped figures"] = monthQueries.groups;
  queries["overview 30 days (Live): trend per day"] = monthQueries.trend;
  queries["overview 365 days (Live): grouped figures"] = yearQueries.groups;
  queries["overview: the merchant's connections"] = monthQueries.connections;
  const figures: Figures = {};
  figures.overview7 = await timed(REPS, () => getOverview(db, ctx.merchantId, "live", periods.week));
  figures.overview30 = await timed(REPS, () => getOverview(db, ctx.merchantId, "live", periods.month));
  figures.overview365 = await timed(SLOW_REPS, () => getOverview(db, ctx.merchantId, "live", periods.year), 1);
  figures.overview30Groups = await timed(REPS, () => db.execute(monthQueries.groups));
  figures.overview30Trend = await timed(REPS, () => db.execute(monthQueries.trend));
  figures.overview30Connections = await timed(REPS, () => db.execute(monthQueries.connections));
  figures.create = await timed(REPS, async () => {
    const result = await createInvoice(db, merchant, "payment", paymentInvoice(ctx.commerceAccount, { test_mode: Math.random() < 0.25 }));
    if (result.kind !== "created") throw new Error(`create answered ${result.kind}`);
  });
  figures.get = await timed(REPS, async (i) => {
    const sample = pick(i);
    if (!(await getInvoice(db, ctx.merchantId, sample.direction, sample.id))) throw new Error("GET found nothing");
  });
  figures.apiList = await timed(REPS, () => listInvoices(db, ctx.merchantId, apiProcessed));
  figures.apiPage2 = await timed(REPS, () => listInvoices(db, ctx.merchantId, apiPage2));
  figures.apiRare = await timed(REPS, () => listInvoices(db, ctx.merchantId, apiRare));
  figures.apiNone = await timed(REPS, () => listInvoices(db, ctx.merchantId, apiNone));
  figures.dashTest = await timed(REPS, () => listDashboardInvoices(db, ctx.merchantId, dashTest));
  figures.dashLive = await timed(REPS, () => listDashboardInvoices(db, ctx.merchantId, dashLive));
  figures.dashFiltered = await timed(REPS, () => listDashboardInvoices(db, ctx.merchantId, dashTypeStatus));
  figures.dashReference = await timed(REPS, () => listDashboardInvoices(db, ctx.merchantId, dashReference));
  figures.homeCounts = await timed(SLOW_REPS, () => countInvoicesByStatus(db, ctx.merchantId, "test"), 1);
  figures.before = await timed(SLOW_REPS, () => singleOrderByQuery(db, ctx.merchantId, false), 1);
  // Search (the header's box → /invoices?q=…): each kind of key, found within the merchant and the view's mode.
  const found = await searchSamples(db, ctx.merchantId, total);
  for (const [key, , text] of SEARCHES) {
    const cases = found.filter((sample) => text(sample)).map((sample) => ({ q: text(sample)!, testMode: sample.testMode, id: sample.id }));
    if (cases.length === 0) throw new Error(`no sample for ${key}`);
    figures[key] = await timed(REPS, async (i) => {
      const probe = cases[i % cases.length]!;
      const page = await listInvoices(db, ctx.merchantId, searchFilter(probe.q, probe.testMode));
      if (!FIXED_TEXT.has(key) && !page.invoices.some((row) => row.id === probe.id)) throw new Error(`${key}: ${probe.q} did not find ${probe.id}`);
    });
    const first = cases[0]!;
    queries[`search ${key} "${first.q}" (${first.testMode ? "Test" : "Live"} view)`] = listInvoicesQuery(
      db,
      ctx.merchantId,
      searchFilter(first.q, first.testMode),
      options,
    );
  }
  const memory = process.memoryUsage();
  figures.rssMb = memory.rss / 2 ** 20;
  figures.heapMb = memory.heapUsed / 2 ** 20;
  const [size] = rowsOf<{ bytes: string }>(await db.execute(sql`select pg_database_size(current_database())::text as bytes`));
  figures.dbMb = Number(size!.bytes) / 2 ** 20;
  return { figures, queries };
}

async function explainAll(db: Db, queries: Record<string, SQLWrapper>): Promise<string> {
  const out: string[] = [];
  for (const [name, query] of Object.entries(queries)) {
    const rows = rowsOf<Record<string, string>>(await db.execute(sql`explain (analyze, buffers) ${query}`));
    out.push(`== ${name}`, ...rows.map((row) => Object.values(row)[0]!), "");
  }
  return out.join("\n");
}

const COLUMNS: [string, string][] = [
  ["create", "create"],
  ["get", "GET id"],
  ["apiList", "API list status"],
  ["apiPage2", "API page 2"],
  ["apiRare", "API list 1%"],
  ["apiNone", "API list none"],
  ["dashTest", "dash Test"],
  ["dashLive", "dash Live"],
  ["dashFiltered", "dash type+status"],
  ["dashReference", "dash reference"],
  ["homeCounts", "home counts"],
  ...SEARCHES.map(([key, title]): [string, string] => [key, title]),
  ["before", "before (1 sort)"],
  ["rollupSeconds", "rollups rebuild s"],
  ["overview7", "overview 7d"],
  ["overview30", "overview 30d"],
  ["overview365", "overview 365d"],
  ["overview30Groups", "30d: groups"],
  ["overview30Trend", "30d: trend"],
  ["overview30Connections", "30d: connections"],
  ["rssMb", "RSS MB"],
  ["heapMb", "heap MB"],
  ["dbMb", "DB MB"],
];

type Opened = {
  db: Db;
  label: string;
  /** Lets go of the database in this process (PGlite: the server opens the directory after). */
  release: () => Promise<void>;
  /** Drops what was made: the temp directory, the throwaway database. */
  close: () => Promise<void>;
  /** How the app server reaches the same data. */
  serverEnv: Record<string, string>;
};

async function openDatabase(): Promise<Opened> {
  if (!ADMIN_URL) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "po-growth-"));
    const handle = await openEmbedded(dir);
    let open = true;
    const release = async () => {
      if (open) await handle.close();
      open = false;
    };
    return {
      db: handle.db,
      label: "embedded PGlite",
      release,
      serverEnv: { DATA_DIR: dir, DATABASE_URL: "" },
      close: async () => (await release(), fs.rmSync(dir, { recursive: true, force: true })),
    };
  }
  const { default: postgres } = await import("postgres");
  const name = `growth_${randomBytes(4).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString());
  let open = true;
  const release = async () => {
    if (open) await handle.close();
    open = false;
  };
  return {
    db: handle.db,
    label: `PostgreSQL (throwaway database ${name})`,
    release,
    serverEnv: { DATABASE_URL: url.toString() },
    close: async () => {
      await release();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** Resident memory of the server's process group (npx, tsx, node), in MiB. */
function groupRssMb(pid: number): number {
  try {
    const out = execFileSync("ps", ["-o", "rss=", "-g", String(pid)]).toString();
    return out.split("\n").reduce((sum, line) => sum + (Number(line.trim()) || 0), 0) / 1024;
  } catch {
    return 0;
  }
}

type ExportFigures = { rows: number; megabytes: number; seconds: number; rowsPerSecond: number; rssBeforeMb: number; rssPeakMb: number; rssAfterMb: number };

/**
 * The CSV export through the real route: the production server (server.ts, needs `next build`)
 * on the grown database, `GET /api/commerce/{payment,payout}-invoices` with `Accept: text/csv`
 * (every invoice of the key's mode), read as it streams; the server's RSS sampled every
 * 100 ms. GROWTH_EXPORT=0 skips it.
 */
async function measureExport(opened: Opened, key: string, heapMb?: number): Promise<ExportFigures> {
  await opened.release();
  const port = Number(process.env.GROWTH_EXPORT_PORT ?? 3542);
  const heap: Record<string, string> = heapMb ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=${heapMb}`.trim() } : {};
  const server = await startAppServer({ port, env: { ...opened.serverEnv, MIGRATE_ON_START: "on", ...heap }, startTimeoutMs: 300_000 });
  try {
    const origin = `http://127.0.0.1:${port}`;
    // Warm the route once (first compile of the module, the key cache), then settle.
    await (
      await fetch(`${origin}/api/commerce/payout-invoices?filter[status]=refunding`, { headers: { authorization: `Bearer ${key}`, accept: "text/csv" } })
    ).text();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const rssBeforeMb = groupRssMb(server.pid!);
    let rssPeakMb = rssBeforeMb;
    const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, groupRssMb(server.pid!))), 100);
    let rows = 0;
    let bytes = 0;
    const started = performance.now();
    try {
      for (const direction of ["payment", "payout"]) {
        const response = await fetch(`${origin}/api/commerce/${direction}-invoices`, { headers: { authorization: `Bearer ${key}`, accept: "text/csv" } });
        if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
        const reader = response.body.getReader();
        let lines = -1; // the header line
        let lastByte = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
          for (let i = 0; i < value.length; i++) {
            if (value[i] === 0x0a && (i > 0 ? value[i - 1] : lastByte) === 0x0d) lines++;
          }
          lastByte = value[value.length - 1]!;
          if (Math.floor((rows + lines) / 10_000) !== Math.floor((rows + lines - value.length) / 10_000))
            process.stderr.write(`\rexport: ${rows + lines} rows`);
        }
        rows += lines;
      }
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write("\n");
    const rssAfterMb = groupRssMb(server.pid!);
    return { rows, megabytes: bytes / 2 ** 20, seconds, rowsPerSecond: rows / seconds, rssBeforeMb, rssPeakMb, rssAfterMb };
  } finally {
    await stopAppServer(server);
  }
}

async function main() {
  const opened = await openDatabase();
  const { db, close, label } = opened;
  const results: { size: number; seedSeconds: number; figures: Figures }[] = [];
  let exported: ExportFigures | undefined;
  let exportedCapped: ExportFigures | undefined;
  let topUpSeconds = 0;
  try {
    const ctx = await setUpGrowth(db);
    for (const size of SIZES) {
      const started = performance.now();
      await growTo(db, ctx, size, Math.round(size * OTHERS), (done, total) => process.stderr.write(`\rseeding ${done}/${total}`));
      const seedSeconds = (performance.now() - started) / 1000;
      process.stderr.write(`\rseeded to ${size} in ${seedSeconds.toFixed(0)} s; measuring\n`);
      // The rollups as `npm run admin -- rebuild-rollups` makes them from the seeded rows (seeding writes rows directly, not through processing).
      const rebuildStarted = performance.now();
      const rebuilt = await rebuildRollups(db);
      const rollupSeconds = (performance.now() - rebuildStarted) / 1000;
      process.stderr.write(`rollups rebuilt in ${rollupSeconds.toFixed(1)} s: ${rebuilt.rows} rows from ${rebuilt.invoices} invoices\n`);
      const release = await holdLock(process.env.GROWTH_LOCK);
      try {
        const { figures, queries } = await measure(db, ctx, size);
        figures.rollupSeconds = rollupSeconds;
        results.push({ size, seedSeconds, figures });
        process.stderr.write(`${size}: ${COLUMNS.map(([key, title]) => `${title} ${figures[key]!.toFixed(1)}`).join(", ")}\n`);
        if (size === Math.max(...SIZES)) {
          const file = path.join("bench/results", `growth-plans-${engine}.txt`);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          const others = Math.round(size * OTHERS);
          fs.writeFileSync(
            file,
            `EXPLAIN (ANALYZE, BUFFERS) on ${label}, merchant with ${size} invoices (+ ${others} for 50 others)\n\n${await explainAll(db, queries)}`,
          );
          process.stderr.write(`plans: ${file}\n`);
        }
      } finally {
        release();
      }
    }
    if (process.env.GROWTH_EXPORT !== "0") {
      // One mode holds EXPORT_ROWS invoices, so one key's export streams that many rows.
      const topUpStarted = performance.now();
      const added = await topUpMode(db, ctx, "live", EXPORT_ROWS, (done, total) => process.stderr.write(`\rexport top-up: ${done}/${total} live invoices`));
      topUpSeconds = (performance.now() - topUpStarted) / 1000;
      process.stderr.write(`\rexport top-up: ${added} live invoices added in ${topUpSeconds.toFixed(0)} s\n`);
      const liveKey = (await createApiKey(db, { merchantId: ctx.merchantId, name: "growth export", mode: "live" })).key;
      const release = await holdLock(process.env.GROWTH_LOCK);
      try {
        exported = await measureExport(opened, liveKey);
        process.stderr.write(`export: ${JSON.stringify(exported)}\n`);
        // Again with the server's JavaScript heap capped: it completes only if the rows are not held.
        exportedCapped = await measureExport(opened, liveKey, CAPPED_HEAP_MB);
      } finally {
        release();
      }
    }
  } finally {
    await close();
  }
  console.log(`\nGrowth on ${label}: median ms over ${REPS} runs (home counts, before and overview 365d: ${SLOW_REPS}), memory after each size`);
  console.log(["invoices".padStart(9), "seed s".padStart(7), ...COLUMNS.map(([, title]) => title.padStart(Math.max(8, title.length)))].join(" "));
  for (const { size, seedSeconds, figures } of results) {
    const cells = COLUMNS.map(([key, title]) => figures[key]!.toFixed(key.endsWith("Mb") ? 0 : 2).padStart(Math.max(8, title.length)));
    console.log([String(size).padStart(9), seedSeconds.toFixed(0).padStart(7), ...cells].join(" "));
  }
  const first = results[0]!.figures;
  const last = results.at(-1)!.figures;
  console.log(
    `ratio ${results.at(-1)!.size}/${results[0]!.size}: ` +
      ["create", "get", "apiList", "dashTest", "dashLive"].map((key) => `${key} ${(last[key]! / first[key]!).toFixed(2)}`).join(", ") +
      `; dashboard list at the largest size ${Math.max(last.dashTest!, last.dashLive!).toFixed(1)} ms (budget 200 ms)` +
      `; overview at the largest size 7d ${last.overview7!.toFixed(1)} ms, 30d ${last.overview30!.toFixed(1)} ms, 365d ${last.overview365!.toFixed(1)} ms (budget 300 ms)`,
  );
  const slowestSearch = Math.max(...SEARCHES.map(([key]) => last[key]!));
  console.log(
    `search at the largest size: slowest kind ${slowestSearch.toFixed(1)} ms (target 100 ms); a name prefix shared by 1 in 20 customers ${last.searchNameBroad!.toFixed(1)} ms, by 1 in 200 ${last.searchNameMid!.toFixed(1)} ms`,
  );
  if (exported) {
    console.log(
      `CSV export over HTTP (Accept: text/csv, a live key: payments then payouts, every live invoice of the merchant, topped up to ${EXPORT_ROWS} in ${topUpSeconds.toFixed(0)} s): ${exported.rows} rows, ` +
        `${exported.megabytes.toFixed(0)} MB in ${exported.seconds.toFixed(1)} s = ${exported.rowsPerSecond.toFixed(0)} rows/s; ` +
        `server RSS ${exported.rssBeforeMb.toFixed(0)} MB before, peak ${exported.rssPeakMb.toFixed(0)} MB during (+${(exported.rssPeakMb - exported.rssBeforeMb).toFixed(0)} MB), ${exported.rssAfterMb.toFixed(0)} MB after`,
    );
  }
  if (exportedCapped) {
    console.log(
      `the same with the server's heap capped at ${CAPPED_HEAP_MB} MiB: ${exportedCapped.rows} rows in ${exportedCapped.seconds.toFixed(1)} s = ${exportedCapped.rowsPerSecond.toFixed(0)} rows/s; ` +
        `RSS ${exportedCapped.rssBeforeMb.toFixed(0)} MB before, peak ${exportedCapped.rssPeakMb.toFixed(0)} MB (+${(exportedCapped.rssPeakMb - exportedCapped.rssBeforeMb).toFixed(0)} MB)`,
    );
  }
}

await main();

/**
 * `npm run bench:pages`: what the dashboard's pages and the hosted page cost a browser, against their budgets.
 *
 * Production build (built here when .next is missing; BENCH_BUILD=1 rebuilds), `server.ts` on
 * embedded PGlite in a throwaway DATA_DIR. A merchant, an API key, a Provider F connection and a
 * webhook endpoint with one test event are seeded before the server starts; the merchant signs in
 * through the sign-in form and a test-mode hosted-page invoice is created through the API. Then, in headless Chromium (the headless shell npm test installs, else /usr/bin/chromium),
 * each page is loaded BENCH_PAGE_LOADS times in a fresh context (empty cache) and measured.
 *
 * The pages: every entry of the owner's navigation (navigationFor, the list the sidebar renders, so
 * a page added to the navigation is measured and held to the budget without touching this file),
 * then the pages reached from them: the composer, an invoice, a connection, Provider F's page with
 * its New connection form open, the API reference's payments page (its largest group), a webhook
 * event (found on the Webhooks page), and the hosted page.
 *
 *
 * - JS: every script response of the load, bodies gzipped here (level 6, what a server's gzip
 *   sends) and summed; the provider page is counted with its 'New connection' form open (Connect
 *   clicked, whatever that loads included). Inline scripts (the RSC payload) are not counted.
 * - TTFB: the navigation's responseStart; LCP: the last largest-contentful-paint entry.
 * - Lighthouse (BENCH_LIGHTHOUSE_RUNS runs, 0 skips it): performance and accessibility, desktop
 *   preset for the dashboard, mobile (the default, with its simulated slow 4G and CPU) for the
 *   hosted page, which customers open on phones.
 *
 * Figures are medians. It prints PASS/MISS per budget, and exits 1 when any page's JavaScript is over
 * its budget (170 kB gzipped for the dashboard, 60 kB for the hosted page), naming the pages.
 * The framework floor (React, React DOM and Next's runtime: the build manifest's rootMainFiles,
 * loaded by every page) is printed too, since no page can go below it.
 */
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright";
import { createApiKey } from "@/lib/api-keys/queries";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { createConnection } from "@/lib/connections/service";
import { openEmbedded } from "@/lib/db/client";
import { navigationFor } from "@/lib/auth/permissions";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { sendTestEvent } from "@/lib/webhooks/deliver";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { describeRunConditions, paymentInvoice, startAppServer, startRunConditions, stopAppServer, type RunConditions } from "./support";

const PORT = Number(process.env.BENCH_PAGES_PORT ?? 3521);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const DEVTOOLS_PORT = PORT + 1000;
const LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 5);
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
// BENCH_LIGHTHOUSE_MOBILE=1: the dashboard under Lighthouse's mobile preset too (simulated slow 4G, 4x CPU);
// BENCH_LIGHTHOUSE_PAGES=/invoices/new,/routing: Lighthouse on those pages (by name) instead of the usual ones.
const LIGHTHOUSE_MOBILE = process.env.BENCH_LIGHTHOUSE_MOBILE === "1";
const LIGHTHOUSE_PAGES = process.env.BENCH_LIGHTHOUSE_PAGES?.split(",");
// What \`npm test\` installs (scripts/ensure-browser.mjs): the headless shell, else the full browser.
const CHROMIUM =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) => fs.existsSync(file)) ?? "/usr/bin/chromium";
const PASSWORD = "bench-password-1";
process.env.CREDENTIALS_KEY ??= randomBytes(32).toString("base64");

const BUDGET = { dashboardJsKb: 170, hostedJsKb: 60, lcpMs: 1000, performance: 95, accessibility: 100 };

type Target = { name: string; path: string; hosted: boolean; openForm?: boolean; lighthouse?: boolean };
/** Lighthouse's runs take minutes each: on the pages the performance budget names, by name. */
const USUAL_LIGHTHOUSE_PAGES = new Set(["/invoices/new", "/invoices", "/connections/[id]", "/routing", "/docs/api", "/docs/api/[tag]", "/pay/[id]"]);
type Load = { jsGz: number; jsRaw: number; scripts: number; ttfb: number; lcp: number; beforeFormGz?: number };
type Row = Target & {
  beforeForm?: number;
  js: number;
  jsRaw: number;
  scripts: number;
  ttfb: number;
  lcp: number;
  performance?: number;
  accessibility?: number;
  /** Lighthouse's Total Blocking Time and LCP (its simulated throttling), medians of its runs. */
  lighthouseTbt?: number;
  lighthouseLcp?: number;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const gz = (body: Buffer) => gzipSync(body, { level: 6 }).length;
const kb = (bytes: number) => bytes / 1024;

function ensureBuild(): void {
  if (process.env.BENCH_BUILD === "1" || !fs.existsSync(".next/BUILD_ID")) {
    console.log("No production build in .next (or BENCH_BUILD=1): running `next build` first.");
    execFileSync("npx", ["next", "build"], { stdio: "inherit" });
  }
}

/** React, React DOM and Next's client runtime: the chunks every page loads before its own. */
function frameworkFloor(): { raw: number; gz: number; files: number } {
  const manifest = JSON.parse(fs.readFileSync(".next/build-manifest.json", "utf8")) as { rootMainFiles: string[] };
  let raw = 0;
  let zipped = 0;
  for (const file of manifest.rootMainFiles) {
    const body = fs.readFileSync(path.join(".next", file));
    raw += body.length;
    zipped += gz(body);
  }
  return { raw, gz: zipped, files: manifest.rootMainFiles.length };
}

async function seed(dir: string) {
  const handle = await openEmbedded(dir);
  try {
    const account = `bench-${randomBytes(4).toString("hex")}`;
    const email = `${account}@example.com`;
    const created = await createMerchantWithOwner(handle.db, {
      email,
      password: PASSWORD,
      name: "Bench Owner",
      merchantName: "Bench Shop",
      commerceAccount: account,
    });
    if (!created.ok) throw new Error("seed merchant");
    const merchantId = created.value.merchant.id;
    const { key } = await createApiKey(handle.db, { merchantId, name: "bench pages" });
    const scope = { db: handle.db, merchantId, actor: { label: "bench" }, vaultKey: Buffer.from(process.env.CREDENTIALS_KEY!, "base64") };
    const input = createConnectionSchema.parse({
      provider: "provider-f",
      kind: "h2h",
      label: "F bench",
      mode: "test",
      credentials: sampleCredentials("provider-f", "h2h", "test"),
    });
    const connection = await createConnection(scope, input);
    if (!connection.ok) throw new Error(`seed connection: ${JSON.stringify(connection)}`);
    // Nothing listens there: the event and its failed delivery are what the event page shows.
    const endpoint = await createEndpoint(handle.db, merchantId, {
      url: "http://127.0.0.1:9/bench-hooks",
      description: "bench",
      enabled: true,
      allEvents: true,
      eventTypes: [],
    });
    if (!endpoint.ok) throw new Error(`seed endpoint: ${JSON.stringify(endpoint)}`);
    // A test event (its delivery fails: nothing listens), so the Webhooks page links an event page to measure.
    await sendTestEvent(handle.db, merchantId, endpoint.value.id);
    return { email, account, key, connectionId: connection.value.id };
  } finally {
    await handle.close();
  }
}

async function createInvoice(key: string, account: string): Promise<string> {
  const response = await fetch(`${ORIGIN}/api/commerce/payment-invoices`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/vnd.api+json" },
    body: JSON.stringify(paymentInvoice(account, { reference_id: `pages-${randomUUID()}`, return_url: "https://shop.example.com/thanks" })),
  });
  if (response.status !== 201) throw new Error(`invoice: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function signIn(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/sign-in`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
  const state = await context.storageState();
  await context.close();
  return state;
}

/** The first link on the page whose path matches, e.g. a webhook event from the Webhooks page; undefined if none. */
/**
 * A disputed payment, so the dispute's page can be measured: the invoice paid on the hosted page with
 * the sandbox's fraud dispute card; the sandbox opens the dispute a second after capture (the server
 * runs with SANDBOX_DISPUTE_OPENS_AFTER_SECONDS=1), and the inbox links it once it is there.
 */
async function disputeLink(browser: Browser, state: Awaited<ReturnType<typeof signIn>>, invoiceId: string): Promise<string | undefined> {
  const paid = await fetch(`${ORIGIN}/pay/${invoiceId}/pay`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Origin: ORIGIN },
    body: JSON.stringify({ number: "4000 0000 0000 0259", expiry: "12/40", cvc: "123", holder: "Bench Customer" }),
  });
  if (!paid.ok) return undefined;
  for (let i = 0; i < 30; i++) {
    const link = await findLink(browser, state, "/disputes", /^\/disputes\/[^/]+$/);
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return undefined;
}

async function findLink(browser: Browser, state: Awaited<ReturnType<typeof signIn>>, from: string, pattern: RegExp): Promise<string | undefined> {
  const context = await browser.newContext({ storageState: state });
  try {
    const page = await context.newPage();
    await page.goto(`${ORIGIN}${from}`, { waitUntil: "load" });
    const hrefs = await page.locator("#main a[href]").evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    return hrefs.find((href) => pattern.test(href));
  } finally {
    await context.close();
  }
}

/** One cold load: fresh context, no cache; scripts counted until the network is idle. */
async function measure(browser: Browser, state: Awaited<ReturnType<typeof signIn>> | undefined, target: Target): Promise<Load> {
  const context: BrowserContext = await browser.newContext(target.hosted ? {} : { storageState: state });
  const page: Page = await context.newPage();
  const bodies: Promise<Buffer | undefined>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") bodies.push(response.body().catch(() => undefined));
  });
  const answer = await page.goto(`${ORIGIN}${target.path}`, { waitUntil: "load" });
  if (!answer?.ok() || new URL(page.url()).pathname !== target.path) throw new Error(`${target.path}: ${answer?.status()} at ${page.url()}`);
  await page.waitForLoadState("networkidle");
  const timing = await page.evaluate(
    () =>
      new Promise<{ ttfb: number; lcp: number }>((resolve) => {
        const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
        let lcp = -1;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) lcp = entry.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => resolve({ ttfb: nav.responseStart, lcp }), 200);
      }),
  );
  let beforeFormGz: number | undefined;
  if (target.openForm) {
    beforeFormGz = (await Promise.all([...bodies])).reduce((n, body) => n + (body ? gz(body) : 0), 0);
    await page.getByRole("button", { name: "Connect" }).click();
    await page.getByRole("button", { name: "Save connection" }).waitFor();
    await page.waitForLoadState("networkidle");
  }
  const loaded = (await Promise.all(bodies)).filter((body): body is Buffer => body !== undefined);
  await context.close();
  return { jsGz: loaded.reduce((n, b) => n + gz(b), 0), jsRaw: loaded.reduce((n, b) => n + b.length, 0), scripts: loaded.length, ...timing, beforeFormGz };
}

type LighthouseScore = { performance: number; accessibility: number; tbt: number; lcp: number };

async function lighthouseScores(target: Target, cookie: string): Promise<LighthouseScore[]> {
  const { default: lighthouse } = await import("lighthouse");
  const { default: desktopConfig } = await import("lighthouse/core/config/desktop-config.js");
  const scores: LighthouseScore[] = [];
  for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
    // A browser of its own per run, which Lighthouse drives over the DevTools port.
    const chrome = await chromium.launch({ executablePath: CHROMIUM, args: [`--remote-debugging-port=${DEVTOOLS_PORT}`] });
    try {
      const result = await lighthouse(
        `${ORIGIN}${target.path}`,
        {
          port: DEVTOOLS_PORT,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
          ...(target.hosted ? {} : { extraHeaders: { Cookie: cookie } }),
        },
        target.hosted || LIGHTHOUSE_MOBILE ? undefined : desktopConfig,
      );
      const lhr = result?.lhr;
      if (!lhr || lhr.runtimeError) throw new Error(`lighthouse ${target.path}: ${lhr?.runtimeError?.message ?? "no result"}`);
      if (lhr.finalDisplayedUrl !== `${ORIGIN}${target.path}`) throw new Error(`lighthouse ${target.path} ended at ${lhr.finalDisplayedUrl}`);
      scores.push({
        performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
        tbt: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? -1),
        lcp: Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? -1),
      });
      if (LIGHTHOUSE_MOBILE)
        console.log(
          `  ${target.name}: Lighthouse ${target.hosted || LIGHTHOUSE_MOBILE ? "mobile" : "desktop"} run ${run + 1}: performance ${scores.at(-1)!.performance}, TBT ${scores.at(-1)!.tbt} ms, LCP ${scores.at(-1)!.lcp} ms`,
        );
      // BENCH_LIGHTHOUSE_SAVE=<dir>: each run's full report as JSON there, to look further than the lines below.
      if (process.env.BENCH_LIGHTHOUSE_SAVE) {
        fs.mkdirSync(process.env.BENCH_LIGHTHOUSE_SAVE, { recursive: true });
        fs.writeFileSync(path.join(process.env.BENCH_LIGHTHOUSE_SAVE, `${target.name.replace(/[^a-z0-9]+/gi, "_")}-${run + 1}.json`), JSON.stringify(lhr));
      }
      if (process.env.BENCH_LIGHTHOUSE_VERBOSE === "1") {
        for (const audit of Object.values(lhr.audits))
          if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== "informative")
            console.log(`  ${target.name}: ${audit.id} ${audit.score} ${audit.displayValue ?? ""}`);
        // Where the main thread went: per script (bootup-time) and the long tasks, the first place to look for TBT.
        const items = (id: string) => (lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
        for (const item of items("bootup-time").slice(0, 8))
          console.log(
            `  ${target.name}: script ${String(item.url).replace(ORIGIN, "")} total ${Math.round(Number(item.total))} ms, scripting ${Math.round(Number(item.scripting))} ms`,
          );
        for (const item of items("long-tasks").slice(0, 8))
          console.log(
            `  ${target.name}: long task at ${Math.round(Number(item.startTime))} ms for ${Math.round(Number(item.duration))} ms (${String(item.url).replace(ORIGIN, "")})`,
          );
        for (const item of items("mainthread-work-breakdown"))
          console.log(`  ${target.name}: main thread ${String(item.groupLabel ?? item.group)} ${Math.round(Number(item.duration))} ms`);
      }
    } finally {
      await chrome.close();
    }
  }
  return scores;
}

function printTable(rows: Row[], floor: ReturnType<typeof frameworkFloor>, conditions: RunConditions): void {
  const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");
  console.log(
    `\nPages, production build, headless Chromium on loopback: medians of ${LOADS} cold loads${LIGHTHOUSE_RUNS ? `, Lighthouse ${LIGHTHOUSE_RUNS} runs` : ""}`,
  );
  console.log(describeRunConditions(conditions));
  console.log(
    `Framework floor (build-manifest rootMainFiles, every page): ${kb(floor.gz).toFixed(1)} kB gz (${kb(floor.raw).toFixed(0)} kB raw, ${floor.files} files)\n`,
  );
  const header = ["page", "JS gz kB", "budget", "", "scripts", "TTFB ms", "LCP ms", "", "LH perf", "", "LH a11y", ""];
  const lines = rows.map((row) => {
    const jsBudget = row.hosted ? BUDGET.hostedJsKb : BUDGET.dashboardJsKb;
    const lh = row.performance === undefined;
    return [
      `${row.name}${row.hosted ? " (mobile LH)" : ""}`,
      kb(row.js).toFixed(1),
      `<= ${jsBudget}`,
      verdict(kb(row.js) <= jsBudget),
      String(row.scripts),
      row.ttfb.toFixed(0),
      row.lcp.toFixed(0),
      verdict(row.lcp >= 0 && row.lcp < BUDGET.lcpMs),
      lh ? "-" : String(row.performance),
      lh ? "" : verdict(row.performance! >= BUDGET.performance),
      lh ? "-" : String(row.accessibility),
      lh ? "" : verdict(row.accessibility! >= BUDGET.accessibility),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  console.log(format(header));
  for (const line of lines) console.log(format(line));
  console.log(
    `\nBudgets: JS <= ${BUDGET.dashboardJsKb} kB gz (dashboard), <= ${BUDGET.hostedJsKb} kB gz (hosted page); LCP < ${BUDGET.lcpMs} ms; Lighthouse performance >= ${BUDGET.performance}, accessibility ${BUDGET.accessibility}.`,
  );
}

async function main() {
  const conditions = startRunConditions("embedded PGlite");
  ensureBuild();
  const floor = frameworkFloor();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "po-bench-pages-"));
  const seeded = await seed(dataDir);
  const server = await startAppServer({
    port: PORT,
    env: { DATA_DIR: dataDir, DATABASE_URL: "", SMTP_URL: "", MAIL_OUTBOX_PAGE: "1", SANDBOX_DISPUTE_OPENS_AFTER_SECONDS: "1" },
  });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM });
    const invoiceId = await createInvoice(seeded.key, seeded.account);
    const state = await signIn(browser, seeded.email);
    const cookie = state.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    // The sidebar's own list, so a page added to the navigation is measured without a change here.
    const navigation = navigationFor("owner").map((item): Target => ({ name: item.href, path: item.href, hosted: false }));
    const event = await findLink(browser, state, "/webhooks", /^\/webhooks\/events\/[^/]+$/);
    if (!event) console.log("No webhook event on /webhooks: the event page is not measured.");
    const dispute = await disputeLink(browser, state, await createInvoice(seeded.key, seeded.account));
    if (!dispute) console.log("No dispute on /disputes: the dispute page is not measured.");
    const details: Target[] = [
      { name: "/providers/provider-f + form", path: "/providers/provider-f", hosted: false, openForm: true },
      { name: "/connections/[id]", path: `/connections/${seeded.connectionId}`, hosted: false },
      { name: "/invoices/new", path: "/invoices/new", hosted: false },
      { name: "/invoices/[id]", path: `/invoices/${invoiceId}`, hosted: false },
      // The API reference's largest group: the composer's create operations and the invoice schemas.
      { name: "/docs/api/[tag]", path: "/docs/api/payments", hosted: false },
      ...(event ? [{ name: "/webhooks/events/[id]", path: event, hosted: false }] : []),
      ...(dispute ? [{ name: "/disputes/[id]", path: dispute, hosted: false }] : []),
      { name: "/pay/[id]", path: `/pay/${invoiceId}`, hosted: true },
    ];
    const targets = [...navigation, ...details].map((target) => ({ ...target, lighthouse: USUAL_LIGHTHOUSE_PAGES.has(target.name) }));
    // Warm-up: the server compiles nothing in production, but its first render of each route loads modules.
    for (const target of targets) await measure(browser, state, target);
    const rows: Row[] = [];
    for (const target of targets) {
      const loads: Load[] = [];
      for (let i = 0; i < LOADS; i++) loads.push(await measure(browser, state, target));
      const row: Row = {
        ...target,
        js: median(loads.map((l) => l.jsGz)),
        jsRaw: median(loads.map((l) => l.jsRaw)),
        scripts: median(loads.map((l) => l.scripts)),
        ttfb: median(loads.map((l) => l.ttfb)),
        lcp: median(loads.map((l) => l.lcp)),
        ...(target.openForm ? { beforeForm: median(loads.map((l) => l.beforeFormGz ?? 0)) } : {}),
      };
      if (LIGHTHOUSE_RUNS > 0 && (LIGHTHOUSE_PAGES ? LIGHTHOUSE_PAGES.includes(target.name) : target.lighthouse)) {
        const scores = await lighthouseScores(target, cookie);
        row.performance = median(scores.map((s) => s.performance));
        row.accessibility = median(scores.map((s) => s.accessibility));
        row.lighthouseTbt = median(scores.map((s) => s.tbt));
        row.lighthouseLcp = median(scores.map((s) => s.lcp));
      }
      rows.push(row);
      const before = row.beforeForm === undefined ? "" : `, ${kb(row.beforeForm).toFixed(1)} kB of it before Connect is clicked`;
      console.log(
        `${target.name}: JS ${kb(row.js).toFixed(1)} kB gz (${kb(row.jsRaw).toFixed(0)} kB raw, ${row.scripts} scripts${before}), TTFB ${row.ttfb.toFixed(0)} ms, LCP ${row.lcp.toFixed(0)} ms${row.performance === undefined ? "" : `, Lighthouse ${row.performance}/${row.accessibility} (TBT ${row.lighthouseTbt} ms, LCP ${row.lighthouseLcp} ms)`}`,
      );
    }
    printTable(rows, floor, conditions);
    const over = rows.filter((row) => kb(row.js) > (row.hosted ? BUDGET.hostedJsKb : BUDGET.dashboardJsKb));
    if (over.length > 0) {
      console.log(`\nOver the JavaScript budget: ${over.map((row) => `${row.name} ${kb(row.js).toFixed(1)} kB`).join(", ")}`);
      process.exitCode = 1;
    }
  } finally {
    // A browser that failed to start must not leave the server behind (the next run would find its port taken).
    await browser?.close();
    await stopAppServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

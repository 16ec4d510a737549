/**
 * `npm run bench:growth-http`: the invoice list page over HTTP at a million
 * invoices. Seeds one merchant to GROWTH_HTTP_SIZE invoices (default 10^6; bench/growth-seed.ts)
 * in a throwaway PostgreSQL database (BENCH_DATABASE_URL, dropped after), starts the production
 * server (`server.ts`, needs `next build`; GROWTH_APP_DIR names another checkout's build), signs
 * the owner in through the sign-in form in headless Chromium, then fetches with that session:
 * /invoices (the list page), /invoices filtered, the list's refresh (/api/dashboard/invoices) and
 * the home page (/home, which counts invoices by status). Median time to the whole body over
 * GROWTH_REPS fetches on loopback, and the server's RSS (its process group).
 */
import { execFileSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { chromium } from "playwright";
import { openPostgres } from "@/lib/db/client";
import { growTo, setUpGrowth } from "./growth-seed";
import { holdLock, median, startAppServer, stopAppServer } from "./support";

process.env.LOG_LEVEL = "silent";
process.env.CREDENTIALS_KEY ??= randomBytes(32).toString("base64");

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "";
const SIZE = Number(process.env.GROWTH_HTTP_SIZE ?? 1_000_000);
const REPS = Number(process.env.GROWTH_REPS ?? 15);
const PORT = Number(process.env.GROWTH_HTTP_PORT ?? 3541);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const APP_DIR = path.resolve(process.env.GROWTH_APP_DIR ?? process.cwd());

/** Resident memory of the server's process group, in MiB. */
function serverRssMb(child: ChildProcess): number {
  const out = execFileSync("ps", ["-o", "rss=", "-g", String(child.pid)]).toString();
  return out.split("\n").reduce((sum, line) => sum + (Number(line.trim()) || 0), 0) / 1024;
}

async function signIn(email: string, password: string): Promise<string> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${ORIGIN}/sign-in`);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
    return (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  } finally {
    await browser.close();
  }
}

async function timeFetch(url: string, cookie: string): Promise<{ ms: number; ttfb: number; bytes: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie }, redirect: "manual" });
  const ttfb = performance.now() - started;
  const body = await response.text();
  return { ms: performance.now() - started, ttfb, bytes: body.length, status: response.status };
}

async function main() {
  if (!ADMIN_URL) throw new Error("BENCH_DATABASE_URL=postgres://… names the server for the throwaway database");
  const { default: postgres } = await import("postgres");
  const name = `growth_http_${randomBytes(4).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let server: ChildProcess | undefined;
  let release = () => {};
  try {
    const handle = await openPostgres(url.toString());
    const ctx = await setUpGrowth(handle.db);
    const started = performance.now();
    await growTo(handle.db, ctx, SIZE, Math.round(SIZE * 0.1), (done, total) => process.stderr.write(`\rseeding ${done}/${total}`));
    process.stderr.write(`\rseeded ${SIZE} in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    await handle.close();
    release = await holdLock(process.env.GROWTH_LOCK);
    server = await startAppServer({ port: PORT, cwd: APP_DIR, env: { DATABASE_URL: url.toString() }, startTimeoutMs: 180_000 });
    const cookie = await signIn(`${ctx.commerceAccount}@example.com`, "growth-password-1");
    const targets = [
      ["/invoices", "list page, default view"],
      ["/invoices?type=payout&status=processed", "list page, payouts + processed"],
      ["/invoices?reference=ab", "list page, reference prefix"],
      ["/api/dashboard/invoices", "list refresh (JSON)"],
      ["/home", "home page (counts by status)"],
    ] as const;
    console.log(`\n/invoices over HTTP on PostgreSQL, merchant with ${SIZE} invoices; median of ${REPS} fetches with a signed-in session (loopback)`);
    for (const [target, label] of targets) {
      const runs = [];
      for (let i = 0; i < REPS + 2; i++) runs.push(await timeFetch(`${ORIGIN}${target}`, cookie));
      const timed = runs.slice(2);
      if (timed.some((run) => run.status !== 200)) throw new Error(`${target} answered ${timed.map((run) => run.status).join(",")}`);
      console.log(
        `${label.padEnd(34)} ${target.padEnd(42)} whole body ${median(timed.map((r) => r.ms))
          .toFixed(1)
          .padStart(7)} ms   first byte ${median(timed.map((r) => r.ttfb))
          .toFixed(1)
          .padStart(7)} ms   ${Math.round(timed[0]!.bytes / 1024)} KiB`,
      );
    }
    console.log(`server RSS after: ${serverRssMb(server).toFixed(0)} MiB`);
  } finally {
    if (server) await stopAppServer(server);
    release();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();

// The specs import server-only modules (sample credentials); outside Next, `server-only` needs this hook.
import "./scripts/register-server-only.mjs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3107);
// One throwaway data directory per run, shared with the workers through the environment.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "po-e2e-"));
// The server records what it answers, receives and logs there (lib/e2e-record.ts), for e2e/leak-scan.spec.ts.
process.env.E2E_RECORD_DIR ??= path.join(process.env.E2E_DATA_DIR, "record");
process.env.E2E_AUTH_SECRET ??= "e2e-only-secret-not-for-production-0123456789";
// The bearer token a scraper sends for GET /metrics (e2e/metrics.api.spec.ts).
process.env.E2E_METRICS_TOKEN ??= "e2e-only-metrics-token-not-for-production-0123456789";
// bcrypt's lowest cost, for the server and for the specs that make accounts themselves: every spec
// signs up and in, and at the default cost each of those is about half a second of CPU.
process.env.PASSWORD_HASH_COST ??= "4";

/**
 * Playwright's own Chromium where installed, else Debian's old headless shell (what Playwright itself
 * runs headless: no GPU process, about half the CPU of the full browser, which matters on two cores),
 * else Debian's full Chromium. scripts/ensure-browser.mjs installs the shell.
 */
function browserPath(): string | undefined {
  try {
    const own = chromium.executablePath();
    if (own && fs.existsSync(own)) return undefined;
  } catch {
    // no bundled browser
  }
  return ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) => fs.existsSync(file)) ?? "/usr/bin/chromium";
}

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  // Two on two cores (Playwright's default, half the cores, would be one). Three kept the load
  // average near 16 on a two-core machine, mostly Chromium, and a sign-up's confirm step outlasted
  // its 10 s there; E2E_WORKERS raises it on a bigger machine.
  workers: Number(process.env.E2E_WORKERS) || 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-reports/e2e.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // A trace records DOM snapshots and screencast frames of every test while it runs, to keep only
    // a failing one's: CPU the two cores of CI need for the tests, for files nobody can open there
    // (a clean clone, only the log is kept). Locally a failure leaves its trace in test-results/.
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: browserPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "api", testMatch: /.*\.api\.spec\.ts/ },
    { name: "ui", testMatch: /.*\.ui\.spec\.ts/ },
    // Last, while the server still runs: searches everything the run left for its secrets.
    { name: "leak-scan", testMatch: /leak-scan\.spec\.ts/, dependencies: ["api", "ui"] },
  ],
  webServer: {
    command: "npx tsx --import ./scripts/register-server-only.mjs server.ts",
    url: `http://127.0.0.1:${PORT}/sign-in`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      DATA_DIR: process.env.E2E_DATA_DIR,
      PORT: String(PORT),
      HOSTNAME: "127.0.0.1",
      NODE_ENV: "production",
      DATABASE_URL: "",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      AUTH_SECRET: process.env.E2E_AUTH_SECRET,
      METRICS_TOKEN: process.env.E2E_METRICS_TOKEN,
      E2E_RECORD_DIR: process.env.E2E_RECORD_DIR,
      APP_URL: `http://127.0.0.1:${PORT}`,
      // The webhook specs' receivers listen on 127.0.0.1: the operator's explicit allowance (off by default in production).
      WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
      // No SMTP server: e-mail goes to the outbox, and the account specs read their links on /outbox (lib/mail/config.ts).
      // Every spec signs up from 127.0.0.1: the per-address sign-up limit (20 in 15 minutes) would
      // silently stop the e-mails a few specs in (the limit itself: tests/integration/auth-accounts.test.ts).
      SIGN_UP_MAX_PER_ADDRESS: "100000",
      PASSWORD_HASH_COST: process.env.PASSWORD_HASH_COST,
      SMTP_URL: "",
      MAIL_OUTBOX_PAGE: "1",
      // A dispute card's payment is disputed a second after capture, and submitted evidence decided a
      // second later, so e2e/disputes.ui.spec.ts waits for neither (lib/sandbox/disputes.ts).
      SANDBOX_DISPUTE_OPENS_AFTER_SECONDS: "1",
      SANDBOX_DISPUTE_DECIDES_AFTER_SECONDS: "1",
      // Alerts are evaluated every 2 s instead of every minute, so e2e/alerts.ui.spec.ts waits little.
      ALERTS_SWEEP_SECONDS: "2",
    },
  },
});

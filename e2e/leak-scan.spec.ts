import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { givenSecrets, runVaultKey } from "./support/leak-secrets";
import { scan, summary } from "./support/leak-scan";

/**
 * Runs after every other spec (the `leak-scan` project depends on `api` and
 * `ui`, playwright.config.ts), while the web server still holds the database. The server recorded
 * every answer it sent, everything the clients sent and its own output (lib/e2e-record.ts); it
 * dumps every table here; then every secret and full card number of the run (as digits and written
 * in groups) is searched for in the answers (bodies and response headers), the log, the rows
 * (pg-boss's jobs included) and the built client bundles.
 */
test("no secret or full card number of the run in any answer, log line, database row, job or client bundle", async ({ request }) => {
  const dataDir = process.env.E2E_DATA_DIR!;
  const recordDir = process.env.E2E_RECORD_DIR!;
  const dump = await request.get("/__e2e/dump");
  expect(dump.status(), await dump.text()).toBe(200);
  const dumped = (await dump.json()) as { tables: string[]; rows: number };
  expect(dumped.tables).toEqual(
    expect.arrayContaining(["public.connections", "public.invoices", "public.webhook_secrets", "public.request_log", "pgboss.job", "pgboss.archive"]),
  );

  const report = scan({ recordDir, bundleDir: path.join(process.cwd(), ".next", "static"), given: givenSecrets(dataDir), vaultKey: runVaultKey(dataDir) });
  fs.mkdirSync("test-reports", { recursive: true });
  fs.writeFileSync("test-reports/leak-scan.json", `${JSON.stringify({ ...report, tablesDumped: dumped.tables.length, rowsDumped: dumped.rows }, null, 2)}\n`);
  console.log(summary(report));

  // Every place was searched, and holds what a run leaves: the scan is not looking at nothing.
  expect(report.places.responses).toBeGreaterThan(100);
  expect(report.places.headers).toBeGreaterThanOrEqual(report.places.responses!);
  expect(report.places.logs).toBeGreaterThan(0);
  expect(report.places.database).toBe(dumped.tables.length);
  expect(report.places.bundles).toBeGreaterThan(10);
  expect(report.secrets).toBeGreaterThan(20);
  expect(report.cards).toBeGreaterThanOrEqual(5);
  expect(report.hits.map((hit) => `${hit.where}: ${hit.secret}: …${hit.context}…`)).toEqual([]);
});

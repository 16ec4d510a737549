/**
 * Operator command: one JSON line on stdout per call.
 *   npm run admin -- create-merchant --email E --password P --commerce-account NAME [--name N] [--merchant-name M]
 *   npm run admin -- seed-demo [--reset]   (a new demo password; sample invoices are added once)
 *   npm run admin -- rotate-credentials-key [--status]   (re-seals vault values under CREDENTIALS_KEY; --status only counts)
 *   npm run admin -- reset-two-factor --email E   (two-factor sign-in off for someone who lost phone and recovery codes; their sessions end)
 *   npm run admin -- rebuild-rollups [--merchant ID]   (recomputes the overview's rollups from invoices, attempts and refunds)
 * Works on PGlite when no server holds the data directory, and on PostgreSQL (DATABASE_URL) at any time.
 */
import { parseArgs } from "node:util";
import { runAdmin } from "../lib/admin/commands";

process.env.LOG_LEVEL ??= "silent";

runAdmin(process.argv.slice(2), parseArgs)
  .then((output) => {
    process.stdout.write(JSON.stringify(output) + "\n");
    process.exit(0);
  })
  .catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stdout.write(JSON.stringify({ error: message }) + "\n");
    process.exit(1);
  });

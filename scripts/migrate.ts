/**
 * `npm run migrate`: applies this release's pending migrations and exits (the release step of
 * docs/deploy.md; app instances then start with MIGRATE_ON_START=off). PostgreSQL at DATABASE_URL,
 * under the same advisory lock the app takes, so it may run while instances start; or the embedded
 * database in DATA_DIR, behind its lock file (it stops at once, naming the holder, while a server
 * has the directory open). Prints one JSON line: `{"migrated":N,"database":"postgresql"|"embedded"}`.
 */
import { databaseUrl, dataDir } from "../lib/config";
import { migrateEmbedded, migratePostgres } from "../lib/db/client";

process.env.LOG_LEVEL ??= "silent";

async function main(): Promise<void> {
  const url = databaseUrl();
  const migrated = url ? await migratePostgres(url) : await migrateEmbedded(dataDir());
  process.stdout.write(JSON.stringify({ migrated, database: url ? "postgresql" : "embedded" }) + "\n");
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stdout.write(JSON.stringify({ error: message }) + "\n");
    process.exit(1);
  });

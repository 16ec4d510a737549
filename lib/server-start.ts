import { authSecret } from "@/lib/auth/secret";
import { checkPublicBaseUrl } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { DataDirLockedError } from "@/lib/db/lock";
import { logger } from "@/lib/logger";

/**
 * Fails fast at start rather than at the first request: a data directory held by another
 * process, a deployment missing its secrets, a bad operator setting (the API rate limits,
 * MIGRATE_ON_START, an APP_URL missing or not https on a server others reach) or a database
 * behind this release with MIGRATE_ON_START=off stops the server with a clear message. Then the background job workers start (lib/server-jobs.ts; `JOBS_WORKERS=off` for a
 * process that only serves, `npm run worker` for a process that only works).
 */
export async function startServer(options: { listen?: string } = {}): Promise<void> {
  try {
    authSecret();
    // `npm start` (server.ts) says where it listens; `next dev` (instrumentation.ts) does not, and is not checked.
    if (options.listen !== undefined) checkPublicBaseUrl(options.listen);
    // The credentials keys (CREDENTIALS_KEY, CREDENTIALS_KEY_PREVIOUS during a rotation): a malformed one stops the start here.
    (await import("@/lib/vault/vault-key")).credentialsKey();
    const { rateLimitSettings } = await import("@/lib/api/rate-limit");
    rateLimitSettings();
    (await import("@/lib/request-log/sweep")).requestLogDays();
    const db = await getDb();
    const { startServerJobs } = await import("@/lib/server-jobs");
    await startServerJobs(db);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`\nCannot start: ${message}\n`);
    if (!(error instanceof DataDirLockedError)) logger.error("start failed", { error });
    process.exit(1);
  }
}

import { authSecret } from "@/lib/auth/secret";
import { getDb } from "@/lib/db/client";
import { DataDirLockedError } from "@/lib/db/lock";
import { logger } from "@/lib/logger";

/**
 * Fails fast at start rather than at the first request: a data directory held by another
 * process, or a deployment missing its secrets, stops the server with a clear message.
 */
export async function startServer(): Promise<void> {
  try {
    authSecret();
    await getDb();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`\nCannot start: ${message}\n`);
    if (!(error instanceof DataDirLockedError)) logger.error("start failed", { error });
    process.exit(1);
  }
}

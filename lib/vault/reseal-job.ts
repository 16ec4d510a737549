import "server-only";
import { credentialsKey } from "@/lib/vault/vault-key";
import type { Db } from "@/lib/db/client";
import { enqueue } from "@/lib/jobs/queue";
import { defineTask, type JobSweep } from "@/lib/jobs/task";
import { logger } from "@/lib/logger";
import { keyId } from "./crypto-box";
import { keyringOf } from "./keyring";
import { hasValuesToReseal, resealAll, unreadableForLog } from "./rotation";

/** A new job may be queued once per window while values remain (several instances, one job). */
const QUEUE_WINDOW_MS = 10 * 60_000;

/**
 * "credentials-reseal": seals every value under a previous key (or in the v1 format) again under
 * CREDENTIALS_KEY. `keyId` is the current key's id when it was queued; an instance that seals with
 * another key (an old instance during a rolling deploy) leaves the job to the others.
 */
export const credentialsResealTask = defineTask("credentials-reseal", async (db, data) => {
  const keys = credentialsKey();
  const own = keyId(keys);
  if (data.keyId !== own) {
    logger.info("credentials re-seal skipped: queued for another key", { queuedFor: data.keyId, keyId: own });
    return;
  }
  const result = await resealAll(db, keys);
  logger.info("credentials re-sealed", {
    keyId: own,
    resealed: result.resealed,
    changedMeanwhile: result.changedMeanwhile,
    unreadable: unreadableForLog(result),
  });
});

/** Queues the re-seal job when a previous key is configured and something is still under it. */
export async function queueCredentialsReseal(db: Db, now = Date.now()): Promise<number> {
  const keys = credentialsKey();
  if (keyringOf(keys).previous.length === 0) return 0;
  if (!(await hasValuesToReseal(db, keys))) return 0;
  const own = keyId(keys);
  const queued = await enqueue(db, "credentials-reseal", { keyId: own }, { key: `${own}:${Math.floor(now / QUEUE_WINDOW_MS)}` });
  return queued ? 1 : 0;
}

/** Runs at each worker's start and every minute: a rotation starts itself when the instances start with CREDENTIALS_KEY_PREVIOUS. */
export const credentialsResealSweep: JobSweep = { name: "credentials-reseal", run: (db) => queueCredentialsReseal(db) };

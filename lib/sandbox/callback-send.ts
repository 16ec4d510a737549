import "server-only";
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { enqueue } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import type { SandboxRecord } from "./records";

/** Record statuses that are no decision yet: nothing to notify ("pending_3ds" is three-ds.ts's THREE_DS_PENDING_STATUS, which imports this module). */
const UNDECIDED = new Set(["pending_3ds", "unavailable"]);

/**
 * The notification id a sandbox gives its callback about a record in its current state: the same
 * state always gives the same id (so queuing it twice sends it once, and a resent one is a replay),
 * a new state a new id.
 */
export function sandboxNotificationId(record: Pick<SandboxRecord, "provider" | "reference" | "status" | "details">): string {
  const state = `${record.provider}\u0000${record.reference}\u0000${record.status}\u0000${String(record.details.threeDs ?? "")}`;
  return `ntf_${createHash("sha256").update(state).digest("hex").slice(0, 32)}`;
}

/**
 * A sandbox has decided something about one of its records (a payment or payout final at creation,
 * a 3-D Secure pass or fail): its callback to the service is queued, sent a second later by
 * `sandboxCallbackTask` (lib/providers/server/tasks/sandbox-callback.ts) as the real provider would, asynchronously.
 * A failure to queue never changes the sandbox's own answer; it is logged.
 */
export async function queueSandboxCallback(db: Db, record: SandboxRecord): Promise<void> {
  if (!record.connectionId || UNDECIDED.has(record.status)) return;
  const notificationId = sandboxNotificationId(record);
  try {
    await enqueue(
      db,
      "sandbox-callback",
      { provider: record.provider, connectionId: record.connectionId, reference: record.reference, notificationId },
      { startAfter: 1, key: notificationId },
    );
  } catch (error) {
    logger.error("sandbox callback not queued", { provider: record.provider, reference: record.reference, error });
  }
}

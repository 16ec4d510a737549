import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { SETTLED_ATTEMPT_STATUSES, type AttemptStatus, type ConnectionHealth, type Resolution } from "@/lib/db/enums";
import { connections } from "@/lib/db/schema";
import { recordMerchantEvent, type RecordedEvent } from "@/lib/invoices/events";
import type { JobSweep } from "@/lib/jobs/task";
import { queueEventDelivery } from "@/lib/invoices/status";
import { readConnectionDisputeRate, rowsOf } from "./overview";

/**
 * A connection's health from its recent attempts. The rule, over the last HEALTH_WINDOW counted
 * outcomes of the connection (`S` a success, `F` a technical failure):
 * - counted: a success, and a technical failure: an outcome left unknown (timeout, no answer) or a
 *   failure for a technical reason (TECHNICAL_RESOLUTIONS). A decline for the card or the customer
 *   (issuer decline, insufficient funds, CVV, 3-D Secure, expired) is not the provider's fault and
 *   is not counted; an attempt that settles after being unknown was counted when it became unknown;
 * - failing: the last FAILING_STREAK counted outcomes all failed, or at least MIN_COUNTED are
 *   counted and fewer than FAILING_BELOW of them succeeded;
 * - degraded: the last DEGRADED_STREAK failed, or at least MIN_COUNTED are counted and fewer than
 *   DEGRADED_BELOW succeeded;
 * - healthy otherwise (also with nothing counted yet);
 * - and at least degraded while the connection's dispute rate is high: over its last
 *   DISPUTE_RATE_DAYS days, at least DISPUTE_RATE_MIN_PAYMENTS payments and DISPUTE_RATE_DEGRADED
 *   or more of them disputed (card networks start watching a merchant at about 1 %). Never failing
 *   for disputes alone: the provider still works, and routing must not drop it for that.
 * Kept on the connection row in the transaction that settles the attempt, or that opens a dispute
 * (`noteDisputeRate`; a sweep lowers it again as days pass); a change writes a
 * `connection.health_changed` event in the same transaction (outbox).
 */
export const HEALTH_WINDOW = 20;
const FAILING_STREAK = 3;
const DEGRADED_STREAK = 2;
const MIN_COUNTED = 3;
const FAILING_BELOW = 0.5;
const DEGRADED_BELOW = 0.8;
export const DISPUTE_RATE_DAYS = 30;
const DISPUTE_RATE_MIN_PAYMENTS = 20;
const DISPUTE_RATE_DEGRADED = 0.01;

const TECHNICAL_RESOLUTIONS = [
  "provider_unavailable",
  "provider_auth_error",
  "mode_mismatch",
  "unable_to_reconcile",
  "general_error",
] as const satisfies readonly Resolution[];

export const CONNECTION_HEALTH_CHANGED = "connection.health_changed";

export const HEALTH_RULE_TEXT =
  `From the connection's last ${HEALTH_WINDOW} attempts that say something about the provider (card and customer declines do not count): ` +
  `failing after ${FAILING_STREAK} technical failures in a row or under ${FAILING_BELOW * 100}% succeeded (of ${MIN_COUNTED} or more), ` +
  `degraded after ${DEGRADED_STREAK} in a row or under ${DEGRADED_BELOW * 100}% succeeded, healthy otherwise; ` +
  `and degraded at least while ${DISPUTE_RATE_DEGRADED * 100}% or more of its payments of the last ${DISPUTE_RATE_DAYS} days are disputed (from ${DISPUTE_RATE_MIN_PAYMENTS} payments).`;

/** The dispute half of the rule: a high rate over enough payments. */
export function disputeRateIsHigh(figures: { disputes: number; payments: number }): boolean {
  return figures.payments >= DISPUTE_RATE_MIN_PAYMENTS && figures.disputes / figures.payments >= DISPUTE_RATE_DEGRADED;
}

/** The figures the rule reads from a window: what the API's `health` attribute shows beside the state. */
export type HealthFigures = {
  /** Outcomes counted in the window (at most HEALTH_WINDOW). */
  counted: number;
  succeeded: number;
  failed: number;
  /** succeeded ÷ counted; null while nothing is counted. */
  successRate: number | null;
  /** Technical failures at the end of the window, newest back to the last success. */
  failuresInARow: number;
};

export function healthFigures(window: string): HealthFigures {
  const counted = window.length;
  const succeeded = [...window].filter((c) => c === "S").length;
  const lastSuccess = window.lastIndexOf("S");
  return {
    counted,
    succeeded,
    failed: counted - succeeded,
    successRate: counted > 0 ? succeeded / counted : null,
    failuresInARow: counted - 1 - lastSuccess,
  };
}

export function healthOf(window: string, disputeRateHigh = false): ConnectionHealth {
  const { counted, successRate, failuresInARow } = healthFigures(window);
  const rate = successRate ?? 1;
  if (failuresInARow >= FAILING_STREAK || (counted >= MIN_COUNTED && rate < FAILING_BELOW)) return "failing";
  if (disputeRateHigh || failuresInARow >= DEGRADED_STREAK || (counted >= MIN_COUNTED && rate < DEGRADED_BELOW)) return "degraded";
  return "healthy";
}

/** What an attempt's move from `from` to its new status and resolution adds to the window: `S`, `F`, or nothing. */
export function windowMark(from: AttemptStatus, to: AttemptStatus, resolution: Resolution | null): "S" | "F" | null {
  // Already counted (unknown), or a settled attempt rewritten by a payout cancel: nothing new about the provider.
  if (from === "unknown" || from === to || (SETTLED_ATTEMPT_STATUSES as readonly AttemptStatus[]).includes(from)) return null;
  if (to === "unknown") return "F";
  if (to === "succeeded") return "S";
  if ((to === "declined" || to === "soft_failed") && resolution && (TECHNICAL_RESOLUTIONS as readonly string[]).includes(resolution)) return "F";
  return null;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type HealthEvent = RecordedEvent | undefined;

/**
 * In the attempt's transaction: the window, the last error and, when the health changes, the
 * connection's health and its event. Returns the event to queue after commit, if any.
 */
export async function noteAttemptOutcome(
  tx: Tx,
  connectionId: string,
  change: { from: AttemptStatus; to: AttemptStatus; resolution: Resolution | null; message: string | null },
): Promise<HealthEvent> {
  const mark = windowMark(change.from, change.to, change.resolution);
  // The last error is the provider's (what the health rule counts): a card or customer decline, or a merchant's cancel, is not one.
  const failed = mark === "F";
  if (!mark && !failed) return undefined;
  const [row] = await tx
    .update(connections)
    .set({
      ...(mark ? { healthWindow: sql`right(${connections.healthWindow} || ${mark}, ${HEALTH_WINDOW})` } : {}),
      ...(failed ? { lastErrorAt: sql`now()`, lastErrorResolution: change.resolution, lastErrorMessage: change.message?.slice(0, 500) ?? null } : {}),
    })
    .where(eq(connections.id, connectionId))
    .returning();
  if (!row || !mark) return undefined;
  return moveHealth(tx, row);
}

/** Writes the health the row's window and dispute flag give, and its event, when it changed. */
async function moveHealth(tx: Tx, row: typeof connections.$inferSelect): Promise<HealthEvent> {
  const health = healthOf(row.healthWindow, row.disputeRateHigh);
  if (health === row.health) return undefined;
  const [moved] = await tx
    .update(connections)
    .set({ health, healthChangedAt: sql`now()` })
    .where(eq(connections.id, row.id))
    .returning();
  return recordHealthEvent(tx, moved!, row.health);
}

/**
 * In a transaction that changed the connection's disputes (or by the sweep, as days pass): reads its
 * dispute rate from the rollups, keeps the flag and moves the health when the flag changed. Returns
 * the event to queue after commit, if any.
 */
export async function noteDisputeRate(tx: Tx, connectionId: string, now = new Date()): Promise<HealthEvent> {
  const [row] = await tx.select().from(connections).where(eq(connections.id, connectionId)).for("update");
  if (!row) return undefined;
  const high = disputeRateIsHigh(await readConnectionDisputeRate(tx as unknown as Db, row.merchantId, row, DISPUTE_RATE_DAYS, now));
  if (high === row.disputeRateHigh) return undefined;
  await tx.update(connections).set({ disputeRateHigh: high }).where(eq(connections.id, connectionId));
  return moveHealth(tx, { ...row, disputeRateHigh: high });
}

/** The connection as a `connection.health_changed` event carries it: no credentials, no hints. */
function connectionHealthSnapshot(row: typeof connections.$inferSelect, previous: ConnectionHealth): Record<string, unknown> {
  return {
    id: row.id,
    provider: row.provider,
    kind: row.kind,
    label: row.label,
    mode: row.mode,
    enabled: row.enabled,
    currency: row.currency,
    health: row.health,
    previousHealth: previous,
    healthChangedAt: row.healthChangedAt?.toISOString() ?? null,
    recentOutcomes: row.healthWindow,
    lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
    lastErrorResolution: row.lastErrorResolution,
    lastErrorMessage: row.lastErrorMessage,
  };
}

function recordHealthEvent(tx: Tx, row: typeof connections.$inferSelect, previous: ConnectionHealth): Promise<HealthEvent> {
  return recordMerchantEvent(tx, { merchantId: row.merchantId, type: CONNECTION_HEALTH_CHANGED, connection: connectionHealthSnapshot(row, previous) });
}

/**
 * The dispute half again for every connection with a dispute in its window or still flagged: the
 * rate also moves with no new dispute (payments come in, old days leave the window). Each
 * connection in its own transaction. Returns how many changed.
 */
export async function recheckDisputeRates(db: Db, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - DISPUTE_RATE_DAYS * 24 * 3_600_000);
  const ids = rowsOf<{ id: string }>(
    await db.execute(sql`select id from connections where dispute_rate_high
      union select distinct connection_id from overview_rollups where source = 'dispute' and grain = 'day' and hour >= ${since.toISOString()}::timestamptz and connection_id is not null`),
  ).map((row) => row.id);
  let changed = 0;
  for (const id of ids) {
    const event = await db.transaction((tx) => noteDisputeRate(tx, id, now));
    if (event) {
      changed += 1;
      await queueEventDelivery(db, null, event);
    }
  }
  return changed;
}

/** Hourly: the dispute rates' days pass slowly. */
export const disputeRateSweep: JobSweep = { name: "dispute-rates", run: (db) => recheckDisputeRates(db), everyMs: 3_600_000 };

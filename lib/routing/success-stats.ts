import { and, eq, gte, lt, sql } from "drizzle-orm";
import { recordAudit, type Actor } from "@/lib/audit/record";
import { forgetRoutes } from "@/lib/connections/route-cache";
import type { Db } from "@/lib/db/client";
import type { JobSweep } from "@/lib/jobs/task";
import { invoices, merchants, routingStats } from "@/lib/db/schema";
import type { ConnectionStats, SuccessSettings, SuccessSnapshot } from "./success";
import { SUCCESS_WINDOW_HOURS, type SuccessSettingsAttributes } from "./success-settings";

/**
 * The counts behind success-rate ordering (the rule is in lib/routing/success.ts):
 * `routing_stats` holds, per merchant, service, connection and 5-minute bucket, the attempts that
 * say something about the provider and their successes. The settling transaction adds to it
 * (lib/processing/attempts.ts, with the mark connection health uses); routing sums the buckets of
 * the window, cached per process for STATS_CACHE_MS, so an invoice pays no query for it.
 */

const BUCKET_MS = 5 * 60_000;
const STATS_CACHE_MS = 5_000;

/**
 * The clock the counts are written and read by. Tests replace `now` to let hours pass without
 * waiting (the window slides with it); nothing else does.
 */
export const statsClock = { now: (): number => Date.now() };

const bucketOf = (ms: number) => new Date(Math.floor(ms / BUCKET_MS) * BUCKET_MS);

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** In the attempt's transaction: one counted outcome ("S" success, "F" the provider's failure) for its invoice's service. */
export async function countRoutingOutcome(tx: Tx | Db, input: { invoiceId: string; connectionId: string; mark: "S" | "F" }): Promise<void> {
  const success = input.mark === "S" ? 1 : 0;
  await tx.execute(sql`
    insert into routing_stats (merchant_id, service, connection_id, bucket, attempts, successes)
    select ${invoices.merchantId}, ${invoices.service}, ${input.connectionId}, ${bucketOf(statsClock.now()).toISOString()}::timestamptz, 1, ${success}
    from ${invoices} where ${invoices.id} = ${input.invoiceId}
    on conflict (merchant_id, service, bucket, connection_id) do update
      set attempts = routing_stats.attempts + 1, successes = routing_stats.successes + excluded.successes`);
}

type Cached = { at: number; value: ReadonlyMap<string, ConnectionStats> };
const shared = globalThis as unknown as { __successStats?: Map<string, Cached> };
const cache = (shared.__successStats ??= new Map<string, Cached>());

/** Counts per connection for one merchant and service over the last `windowHours` (the oldest bucket rounds down to 5 minutes). */
async function loadSuccessStats(db: Db, merchantId: string, service: string, windowHours: number): Promise<ReadonlyMap<string, ConnectionStats>> {
  const now = statsClock.now();
  const key = `${merchantId}|${service}|${windowHours}`;
  const hit = cache.get(key);
  if (hit && now - hit.at >= 0 && now - hit.at < STATS_CACHE_MS) return hit.value;
  const rows = await db
    .select({
      connectionId: routingStats.connectionId,
      attempts: sql<string>`sum(${routingStats.attempts})`,
      successes: sql<string>`sum(${routingStats.successes})`,
    })
    .from(routingStats)
    .where(and(eq(routingStats.merchantId, merchantId), eq(routingStats.service, service), gte(routingStats.bucket, bucketOf(now - windowHours * 3_600_000))))
    .groupBy(routingStats.connectionId);
  const value = new Map(rows.map((row) => [row.connectionId, { attempts: Number(row.attempts), successes: Number(row.successes) }]));
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { at: now, value });
  return value;
}

export function toSuccessSettings(row: { successWindowHours: number; successMinSample: number; successExplorationPercent: number }): SuccessSettings {
  return { windowHours: row.successWindowHours, minSample: row.successMinSample, explorationPercent: row.successExplorationPercent };
}

export function toSettingsAttributes(settings: SuccessSettings): SuccessSettingsAttributes {
  return { window_hours: settings.windowHours, min_sample: settings.minSample, exploration_percent: settings.explorationPercent };
}

const SETTINGS_COLUMNS = {
  successWindowHours: merchants.successWindowHours,
  successMinSample: merchants.successMinSample,
  successExplorationPercent: merchants.successExplorationPercent,
};

export async function getSuccessSettings(db: Db, merchantId: string): Promise<SuccessSettings | undefined> {
  const [row] = await db.select(SETTINGS_COLUMNS).from(merchants).where(eq(merchants.id, merchantId)).limit(1);
  return row && toSuccessSettings(row);
}

/**
 * Saves the settings with their audit entry (`routing.settings_updated`, naming what changed) in one
 * transaction, then forgets the merchant's cached routes so the next invoice reads them. A save
 * that changes nothing writes nothing.
 */
export async function saveSuccessSettings(
  db: Db,
  scope: { merchantId: string; actor: Actor },
  input: SuccessSettingsAttributes,
): Promise<SuccessSettings | undefined> {
  const saved = await db.transaction(async (tx) => {
    const [before] = await tx.select(SETTINGS_COLUMNS).from(merchants).where(eq(merchants.id, scope.merchantId)).for("update");
    if (!before) return undefined;
    const old = toSettingsAttributes(toSuccessSettings(before));
    const changes = (Object.keys(old) as (keyof SuccessSettingsAttributes)[]).filter((key) => old[key] !== input[key]);
    if (changes.length === 0) return toSuccessSettings(before);
    const row = await updateSuccessSettings(tx, scope.merchantId, input);
    await recordAudit(tx as unknown as Db, {
      merchantId: scope.merchantId,
      actor: scope.actor,
      action: "routing.settings_updated",
      target: { type: "settings", id: scope.merchantId },
      summary: `Success-rate ordering: window ${input.window_hours} h, minimum sample ${input.min_sample} attempts, exploration ${input.exploration_percent}%`,
      changes,
    });
    return row;
  });
  forgetRoutes(scope.merchantId);
  return saved;
}

async function updateSuccessSettings(db: Db | Tx, merchantId: string, input: SuccessSettingsAttributes): Promise<SuccessSettings | undefined> {
  const [row] = await db
    .update(merchants)
    .set({ successWindowHours: input.window_hours, successMinSample: input.min_sample, successExplorationPercent: input.exploration_percent })
    .where(eq(merchants.id, merchantId))
    .returning(SETTINGS_COLUMNS);
  return row && toSuccessSettings(row);
}

/**
 * The snapshot a decision needs when the setup has a rule ordered by success rate (else undefined,
 * and nothing is read): the counts of the window, the settings and one exploration draw in [0, 1).
 */
export async function successSnapshotFor(
  db: Db,
  merchantId: string,
  service: string,
  setup: { usesSuccessRate: boolean; success: SuccessSettings },
  draw: () => number,
): Promise<SuccessSnapshot | undefined> {
  if (!setup.usesSuccessRate) return undefined;
  const stats = await loadSuccessStats(db, merchantId, service, setup.success.windowHours);
  return { stats, settings: setup.success, draw: draw() };
}

/** Counts older than the longest window (7 days) are never read again: deleted, with an hour to spare. */
export async function pruneRoutingStats(db: Db): Promise<number> {
  const before = bucketOf(statsClock.now() - (SUCCESS_WINDOW_HOURS.max + 1) * 3_600_000);
  const deleted = await db.delete(routingStats).where(lt(routingStats.bucket, before)).returning({ merchantId: routingStats.merchantId });
  return deleted.length;
}

/** Run by the workers every hour (lib/server-jobs.ts). */
export const pruneRoutingStatsSweep: JobSweep = { name: "prune-routing-stats", run: (db) => pruneRoutingStats(db), everyMs: 3_600_000 };

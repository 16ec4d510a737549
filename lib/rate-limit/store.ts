import { createHash, randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { isEmbedded } from "@/lib/config";
import { getDb, type Db } from "@/lib/db/client";
import { logger } from "@/lib/logger";

/**
 * Rate-limit counters shared by every process on one PostgreSQL (table `rate_limits`, unlogged:
 * counters lost in a crash only grant a fresh allowance). Each decision is one atomic statement
 * on the key's row, timed by the database's clock so that processes on different machines agree.
 * Keys are stored as SHA-256, so no e-mail address or client address sits in the table.
 *
 * On the embedded PGlite there is one process per data directory: callers keep their in-memory
 * counters there (`sharedStoreInUse()` is false) and this module is not used.
 */
export function sharedStoreInUse(): boolean {
  return !isEmbedded();
}

export type BucketDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

// Production never changes it, so every process names a key's row alike; a test's reset moves to
// fresh rows (rows left behind expire and are swept).
const generations = globalThis as unknown as { __rateGeneration?: string };

/** Tests only (through resetRateLimits): every shared counter starts afresh. */
export function newSharedGeneration(): void {
  generations.__rateGeneration = `${randomUUID()}:`;
}

function rowKey(key: string): string {
  return createHash("sha256")
    .update(`${generations.__rateGeneration ?? ""}${key}`)
    .digest("hex");
}

type Row = Record<string, unknown>;
function rowsOf(result: unknown): Row[] {
  return (Array.isArray(result) ? result : ((result as { rows?: Row[] }).rows ?? [])) as Row[];
}

const NOW_MS = sql`(extract(epoch from clock_timestamp()) * 1000)`;

const SWEEP_EVERY_MS = 60_000;
const sweeps = globalThis as unknown as { __rateLimitSweepAt?: number };

/** Rows past their expiry grant nothing that a missing row would not: delete them now and then. */
function sweepNowAndThen(db: Db): void {
  const now = Date.now();
  if (now - (sweeps.__rateLimitSweepAt ?? 0) < SWEEP_EVERY_MS) return;
  sweeps.__rateLimitSweepAt = now;
  db.execute(sql`delete from rate_limits where expires_at < clock_timestamp()`).catch((error: unknown) => logger.warn("rate limits: sweep failed", { error }));
}

/**
 * Token bucket: refills `perSecond` tokens a second up to `burst`; takes one token when there is
 * one. The row keeps the tokens left and when it was last refilled.
 */
export async function takeSharedToken(key: string, perSecond: number, burst: number, db?: Db): Promise<BucketDecision> {
  const database = db ?? (await getDb());
  sweepNowAndThen(database);
  const refilled = sql`least(${burst}::float8, b.tokens + greatest(0, excluded.stamp_ms - b.stamp_ms) * ${perSecond}::float8 / 1000)`;
  const result = await database.execute(sql`
    insert into rate_limits as b (key, tokens, stamp_ms, granted, expires_at)
    values (${rowKey(key)}, ${burst - 1}::float8, ${NOW_MS}, true,
            clock_timestamp() + make_interval(secs => ${burst / perSecond}::float8))
    on conflict (key) do update set
      tokens = case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end,
      granted = ${refilled} >= 1,
      stamp_ms = greatest(b.stamp_ms, excluded.stamp_ms),
      expires_at = excluded.expires_at
    returning tokens, granted`);
  const row = rowsOf(result)[0];
  if (!row || row.granted === true) return { ok: true };
  const tokens = Number(row.tokens);
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perSecond)) };
}

/** Fixed window of `windowMs` from the first counted event: seconds until it ends if `limit` is reached, else 0. */
export async function sharedWindowWait(key: string, limit: number, db?: Db): Promise<number> {
  const database = db ?? (await getDb());
  const result = await database.execute(sql`
    select tokens, extract(epoch from (expires_at - clock_timestamp())) as left_seconds
    from rate_limits where key = ${rowKey(key)} and expires_at > clock_timestamp()`);
  const row = rowsOf(result)[0];
  if (!row || Number(row.tokens) < limit) return 0;
  return Math.max(1, Math.ceil(Number(row.left_seconds)));
}

/**
 * Counts one event in the key's window, opening a new window when the last one has ended: the
 * events counted in the window so far, this one included, and the seconds until it ends.
 */
export async function countInSharedWindow(key: string, windowMs: number, db?: Db): Promise<{ count: number; secondsLeft: number }> {
  const database = db ?? (await getDb());
  sweepNowAndThen(database);
  const result = await database.execute(sql`
    insert into rate_limits as b (key, tokens, stamp_ms, granted, expires_at)
    values (${rowKey(key)}, 1, ${NOW_MS}, true, clock_timestamp() + make_interval(secs => ${windowMs / 1000}::float8))
    on conflict (key) do update set
      tokens = case when b.expires_at > clock_timestamp() then b.tokens + 1 else 1 end,
      stamp_ms = case when b.expires_at > clock_timestamp() then b.stamp_ms else excluded.stamp_ms end,
      expires_at = case when b.expires_at > clock_timestamp() then b.expires_at else excluded.expires_at end
    returning tokens, extract(epoch from (expires_at - clock_timestamp())) as left_seconds`);
  const row = rowsOf(result)[0];
  return { count: Number(row?.tokens ?? 1), secondsLeft: Math.max(1, Math.ceil(Number(row?.left_seconds ?? windowMs / 1000))) };
}

/** Takes back one event counted in the key's current window (an attempt that turned out not to count). */
export async function uncountInSharedWindow(key: string, db?: Db): Promise<void> {
  const database = db ?? (await getDb());
  await database.execute(sql`
    update rate_limits set tokens = greatest(tokens - 1, 0)
    where key = ${rowKey(key)} and expires_at > clock_timestamp()`);
}

/**
 * Marks the key as held for `ms` from now (never shortening a longer hold already in force);
 * `sharedWindowWait(key, 1)` then answers the seconds left.
 */
export async function holdShared(key: string, ms: number, db?: Db): Promise<void> {
  const database = db ?? (await getDb());
  sweepNowAndThen(database);
  await database.execute(sql`
    insert into rate_limits as b (key, tokens, stamp_ms, granted, expires_at)
    values (${rowKey(key)}, 1, ${NOW_MS}, true, clock_timestamp() + make_interval(secs => ${ms / 1000}::float8))
    on conflict (key) do update set
      tokens = 1,
      stamp_ms = excluded.stamp_ms,
      expires_at = greatest(b.expires_at, excluded.expires_at)`);
}

export async function clearShared(key: string, db?: Db): Promise<void> {
  const database = db ?? (await getDb());
  await database.execute(sql`delete from rate_limits where key = ${rowKey(key)}`);
}

export type SharedBucket = { key: string; perSecond: number; burst: number };

/**
 * The bucket's upsert, taking up to `want` tokens (an SQL expression): all of them while at least
 * twice as many are left, else one at a time near the limit, else none. `taken` records how many.
 */
function upsertBucket(bucket: SharedBucket, want: SQL, onlyIf?: SQL) {
  const refilled = sql`least(${bucket.burst}::float8, b.tokens + greatest(0, excluded.stamp_ms - b.stamp_ms) * ${bucket.perSecond}::float8 / 1000)`;
  const take = (left: SQL) => sql`(case when ${left} >= 2 * (${want}) then (${want}) when ${left} >= 1 then 1 else 0 end)`;
  const fresh = take(sql`${bucket.burst}::float8`);
  return sql`
    insert into rate_limits as b (key, tokens, stamp_ms, granted, taken, expires_at)
    select ${rowKey(bucket.key)}, ${bucket.burst}::float8 - ${fresh}, ${NOW_MS}, true, ${fresh},
           clock_timestamp() + make_interval(secs => ${bucket.burst / bucket.perSecond}::float8)
    ${onlyIf ? sql`where ${onlyIf}` : sql``}
    on conflict (key) do update set
      tokens = ${refilled} - ${take(refilled)},
      taken = ${take(refilled)},
      granted = ${refilled} >= 1,
      stamp_ms = greatest(b.stamp_ms, excluded.stamp_ms),
      expires_at = excluded.expires_at
    returning tokens, taken`;
}

export type LeaseDecision = { taken: number; retryAfterSeconds: number };

function leaseOf(taken: unknown, tokens: unknown, perSecond: number): LeaseDecision {
  const count = Number(taken ?? 0);
  if (count >= 1) return { taken: count, retryAfterSeconds: 0 };
  return { taken: 0, retryAfterSeconds: Math.max(1, Math.ceil((1 - Number(tokens)) / perSecond)) };
}

/**
 * Two buckets in one statement (one round trip): up to `want` tokens from `first`, and only as many
 * as it granted from `second` (the API's per-key, then per-merchant limit). `second` is undefined
 * when `first` refused. The caller may use min(first.taken, second.taken) tokens; any surplus has
 * left the shared rows and lapses, so leasing never grants more than the limits across instances.
 * Rows are always locked in this order, so callers sharing `second` cannot deadlock.
 */
export async function leaseSharedTokenPair(
  first: SharedBucket,
  second: SharedBucket,
  want: number,
  db?: Db,
): Promise<{ first: LeaseDecision; second?: LeaseDecision }> {
  const database = db ?? (await getDb());
  sweepNowAndThen(database);
  const wanted = Math.max(1, Math.floor(want));
  const result = await database.execute(sql`
    with first_bucket as (${upsertBucket(first, sql`${wanted}::float8`)}),
         second_bucket as (${upsertBucket(second, sql`(select taken from first_bucket)`, sql`(select taken from first_bucket) >= 1`)})
    select f.tokens as first_tokens, f.taken as first_taken, s.tokens as second_tokens, s.taken as second_taken
      from first_bucket f left join second_bucket s on true`);
  const row = rowsOf(result)[0];
  if (!row) return { first: { taken: wanted, retryAfterSeconds: 0 }, second: { taken: wanted, retryAfterSeconds: 0 } };
  const firstLease = leaseOf(row.first_taken, row.first_tokens, first.perSecond);
  if (firstLease.taken < 1) return { first: firstLease };
  return { first: firstLease, second: leaseOf(row.second_taken, row.second_tokens, second.perSecond) };
}

/** One token from each of two buckets in one statement: `leaseSharedTokenPair` taking one. */
export async function takeSharedTokenPair(first: SharedBucket, second: SharedBucket, db?: Db): Promise<{ first: BucketDecision; second?: BucketDecision }> {
  const lease = await leaseSharedTokenPair(first, second, 1, db);
  const decision = (l: LeaseDecision): BucketDecision => (l.taken >= 1 ? { ok: true } : { ok: false, retryAfterSeconds: l.retryAfterSeconds });
  return lease.second ? { first: decision(lease.first), second: decision(lease.second) } : { first: decision(lease.first) };
}

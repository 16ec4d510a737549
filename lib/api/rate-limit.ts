import { forgetLocalWindows } from "@/lib/rate-limit/limiter";
import { logger } from "@/lib/logger";
import { leaseSharedTokenPair, newSharedGeneration, sharedStoreInUse, takeSharedToken } from "@/lib/rate-limit/store";

/**
 * Token buckets for the API (../shared/REFERENCE.md "Limits": 100 requests per second per key, with
 * bursts), two of them on every keyed request:
 *
 * - **Per key** (`API_RATE_LIMIT_PER_SECOND`, `API_RATE_LIMIT_BURST`; 100/s, burst 200): refills
 *   100 tokens a second and holds at most 200, so a client may send two seconds' worth at once (a
 *   batch job starting, a retry storm after an outage) while the sustained rate stays at 100/s.
 * - **Per merchant** (`API_MERCHANT_RATE_LIMIT_PER_SECOND`, `API_MERCHANT_RATE_LIMIT_BURST`;
 *   1000/s, burst 2000): every key of one merchant together. Ten integrations, each at its own
 *   full per-key limit, fit under it, so a real merchant with a shop, a payout batch and a few
 *   back-office scripts never meets it; what it stops is one tenant minting keys to multiply its
 *   share of the database that every merchant shares.
 *
 * The key's bucket is asked first, so a request its key may not send spends nothing of the
 * merchant's. Operators set both limits; `rateLimitSettings()` reads and checks them once (the
 * server refuses to start on a bad value, lib/server-start.ts).
 *
 * `takeToken` is the bucket in process memory (shared by Next and the lean API path). Keyed calls go
 * through `takeKeyedTokens`: on PostgreSQL, where several processes serve one key, the buckets that
 * decide are the shared ones (lib/rate-limit/store.ts, both in one statement), leased a few tokens
 * at a time so that most requests spend no round trip on them (`takeLeasedToken`). This process's own
 * buckets are asked first: they turn away a flood against this process without a database write,
 * and since they see only this process's part of the traffic they refuse only once that part alone
 * has spent the limit.
 */
export type Limit = { perSecond: number; burst: number };
export type RateLimitSettings = { key: Limit; merchant: Limit };

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  key: { perSecond: 100, burst: 200 },
  merchant: { perSecond: 1000, burst: 2000 },
};

type Env = Record<string, string | undefined>;

/** Far beyond what one process can serve: a larger value is a typo (an extra zero or two). */
const MAX_RATE = 1_000_000;

function perSecondFrom(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > MAX_RATE) {
    throw new Error(`${name} must be a number of requests per second above 0 and at most ${MAX_RATE}, got "${raw}"`);
  }
  return value;
}

function burstFrom(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_RATE) {
    throw new Error(`${name} must be a whole number of requests from 1 to ${MAX_RATE}, got "${raw}"`);
  }
  return value;
}

/** Reads the four settings; throws an Error naming the variable when one is not a valid value. */
export function readRateLimitSettings(env: Env = process.env): RateLimitSettings {
  return {
    key: {
      perSecond: perSecondFrom(env, "API_RATE_LIMIT_PER_SECOND", DEFAULT_RATE_LIMITS.key.perSecond),
      burst: burstFrom(env, "API_RATE_LIMIT_BURST", DEFAULT_RATE_LIMITS.key.burst),
    },
    merchant: {
      perSecond: perSecondFrom(env, "API_MERCHANT_RATE_LIMIT_PER_SECOND", DEFAULT_RATE_LIMITS.merchant.perSecond),
      burst: burstFrom(env, "API_MERCHANT_RATE_LIMIT_BURST", DEFAULT_RATE_LIMITS.merchant.burst),
    },
  };
}

const settingsCache = globalThis as unknown as { __rateLimitSettings?: RateLimitSettings };

/** The process's limits, read from the environment once. */
export function rateLimitSettings(): RateLimitSettings {
  return (settingsCache.__rateLimitSettings ??= readRateLimitSettings());
}

/** The per-key limit; also the one public routes use per client address. */
export const RATE_LIMIT_PER_SECOND = rateLimitSettings().key.perSecond;
export const RATE_LIMIT_BURST = rateLimitSettings().key.burst;
/** Bounds memory under a flood of distinct keys (for example spoofed addresses on public routes). */
export const RATE_LIMIT_MAX_KEYS = 10_000;

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

type Bucket = { tokens: number; updatedMs: number };

// On globalThis: Next's bundled copy of this module and server.ts's copy must count one key once.
const shared = globalThis as unknown as { __rateBuckets?: Map<string, Bucket> };
const buckets = (shared.__rateBuckets ??= new Map<string, Bucket>());

function refill(bucket: Bucket, now: number, limit: Limit): void {
  const elapsedSeconds = Math.max(0, now - bucket.updatedMs) / 1000;
  bucket.tokens = Math.min(limit.burst, bucket.tokens + elapsedSeconds * limit.perSecond);
  bucket.updatedMs = now;
}

/**
 * The map is kept in least-recently-used order (re-inserted on each use), so eviction drops the
 * key idle the longest; an idle bucket has refilled to full, so forgetting it grants nothing extra.
 */
function bucketFor(key: string, now: number, limit: Limit): Bucket {
  const existing = buckets.get(key);
  if (existing) {
    buckets.delete(key);
    buckets.set(key, existing);
    refill(existing, now, limit);
    return existing;
  }
  while (buckets.size >= RATE_LIMIT_MAX_KEYS) {
    const oldest = buckets.keys().next().value;
    if (oldest === undefined) break;
    buckets.delete(oldest);
  }
  const created = { tokens: limit.burst, updatedMs: now };
  buckets.set(key, created);
  return created;
}

/** One token from this process's bucket for `key` (the per-key limit unless another is given). */
export function takeToken(key: string, now = Date.now(), limit: Limit = rateLimitSettings().key): RateDecision {
  const bucket = bucketFor(key, now, limit);
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return { ok: true };
  }
  const secondsToNextToken = (1 - bucket.tokens) / limit.perSecond;
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(secondsToNextToken)) };
}

export type KeyedDecision = { ok: true } | { ok: false; limit: "key" | "merchant"; retryAfterSeconds: number };

/**
 * Both limits of a keyed API request: the key's, then (only when the key may send it) its
 * merchant's. This process's buckets first; on PostgreSQL then the shared ones, from a lease.
 */
export async function takeKeyedTokens(keyId: string, merchantId: string): Promise<KeyedDecision> {
  const limits = rateLimitSettings();
  const keyBucket = `key:${keyId}`;
  const merchantBucket = `merchant:${merchantId}`;
  const now = Date.now();
  const localKey = takeToken(keyBucket, now, limits.key);
  if (!localKey.ok) return { ok: false, limit: "key", retryAfterSeconds: localKey.retryAfterSeconds };
  const localMerchant = takeToken(merchantBucket, now, limits.merchant);
  if (!localMerchant.ok) return { ok: false, limit: "merchant", retryAfterSeconds: localMerchant.retryAfterSeconds };
  if (!sharedStoreInUse()) return { ok: true };
  return takeLeasedToken(keyId, merchantId, limits);
}

/**
 * Tokens a process leases from the shared buckets at once while plenty are left (one at a time near
 * the limit): API_RATE_LIMIT_LEASE, default 10; 1 takes every token in a round trip of its own.
 */
const LEASE_SIZE = burstFrom(process.env, "API_RATE_LIMIT_LEASE", 10);
/** Leased tokens not used within this lapse: they came off the shared rows, so lapsing grants nothing. */
const LEASE_LAPSE_MS = 1_000;

type Lease = { tokens: number; lapsesAt: number; fetching?: Promise<KeyedDecision | undefined> };
const leaseStore = globalThis as unknown as { __rateLeases?: Map<string, Lease> };
const leases = (leaseStore.__rateLeases ??= new Map<string, Lease>());

/**
 * The shared limits on PostgreSQL, one round trip per LEASE_SIZE requests instead of one each: a
 * request spends a token this process leased for the key (and its merchant) when one is left;
 * otherwise one request fetches the next lease (both buckets in one statement,
 * `leaseSharedTokenPair`) while the key's other requests wait for it rather than each taking its
 * own. A lease holds at most what both buckets granted, and lapses after LEASE_LAPSE_MS.
 */
async function takeLeasedToken(keyId: string, merchantId: string, limits: RateLimitSettings): Promise<KeyedDecision> {
  for (;;) {
    let lease = leases.get(keyId);
    if (lease && lease.lapsesAt <= Date.now() && !lease.fetching) lease.tokens = 0;
    if (lease && lease.tokens >= 1) {
      lease.tokens -= 1;
      return { ok: true };
    }
    if (lease?.fetching) {
      const refused = await lease.fetching;
      if (refused) return refused;
      continue;
    }
    if (!lease) {
      // Bounded like the buckets: an idle key's lease has lapsed anyway.
      if (leases.size >= RATE_LIMIT_MAX_KEYS) leases.delete(leases.keys().next().value!);
      leases.set(keyId, (lease = { tokens: 0, lapsesAt: 0 }));
    }
    const current = lease;
    const fetching = (async (): Promise<KeyedDecision | undefined> => {
      const shared = await leaseSharedTokenPair(
        { key: `api:key:${keyId}`, ...limits.key },
        { key: `api:merchant:${merchantId}`, ...limits.merchant },
        LEASE_SIZE,
      );
      if (shared.first.taken < 1) return { ok: false, limit: "key", retryAfterSeconds: shared.first.retryAfterSeconds };
      if (!shared.second || shared.second.taken < 1) return { ok: false, limit: "merchant", retryAfterSeconds: shared.second?.retryAfterSeconds ?? 1 };
      current.tokens = Math.min(shared.first.taken, shared.second.taken);
      current.lapsesAt = Date.now() + LEASE_LAPSE_MS;
      return undefined;
    })();
    current.fetching = fetching;
    try {
      const refused = await fetching;
      if (refused) return refused;
    } finally {
      current.fetching = undefined;
    }
  }
}

const warnings = globalThis as unknown as { __addressLimitWarnedAt?: number };
/** How long a public request waits for the shared store before this process's bucket decides alone. */
const SHARED_STORE_WAIT_MS = 1_000;

/**
 * A public route's request from one client address (the per-key limit's figures): this process's
 * bucket first, then on PostgreSQL the one every instance shares, so a flood spread over several
 * instances meets one limit. Should the shared store fail or stall (SHARED_STORE_WAIT_MS), this
 * process's bucket alone decides: public routes include answers that need no database (the provider list,
 * the OpenAPI document), and a database outage must not take them down with it.
 */
export async function takeAddressToken(address: string): Promise<RateDecision> {
  const bucket = `addr:${address}`;
  const local = takeToken(bucket);
  if (!local.ok || !sharedStoreInUse()) return local;
  let timer: NodeJS.Timeout | undefined;
  try {
    const settings = rateLimitSettings().key;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${SHARED_STORE_WAIT_MS} ms`)), SHARED_STORE_WAIT_MS);
    });
    return await Promise.race([takeSharedToken(`public:${bucket}`, settings.perSecond, settings.burst), stalled]);
  } catch (error) {
    const now = Date.now();
    if (now - (warnings.__addressLimitWarnedAt ?? 0) > 60_000) {
      warnings.__addressLimitWarnedAt = now;
      logger.warn("rate limits: the shared store failed; public routes are limited per process meanwhile", { error });
    }
    return local;
  } finally {
    clearTimeout(timer);
  }
}

/** Forgets every bucket and every shared counter (sign-in's too); tests use it to start from a full burst. */
export function resetRateLimits(): void {
  buckets.clear();
  leases.clear();
  forgetLocalWindows();
  newSharedGeneration();
}

/** Forgets this process's buckets only, as a newly started instance has none (the shared ones stay). */
export function forgetLocalBuckets(): void {
  buckets.clear();
  leases.clear();
}

/** Tests only: use these limits instead of the environment's until `undefined` restores them. */
export function overrideRateLimits(settings: RateLimitSettings | undefined): void {
  settingsCache.__rateLimitSettings = settings;
}

export function countTrackedKeys(): number {
  return buckets.size;
}

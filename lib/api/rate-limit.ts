import { randomUUID } from "node:crypto";
import { sharedStoreInUse, takeSharedToken } from "@/lib/rate-limit/store";

/**
 * Token bucket per key (../shared/REFERENCE.md "Limits": 100 requests per second per key, with bursts).
 * Decision: refill 100 tokens/s and hold at most 200, so a client may send two seconds' worth at once
 * (a batch job starting, a retry storm after an outage) while the sustained rate stays at 100/s.
 * Operators may change both (API_RATE_LIMIT_PER_SECOND, API_RATE_LIMIT_BURST).
 *
 * `takeToken` is the bucket in process memory (shared by Next and the lean API path). API keys go
 * through `takeApiToken`: on PostgreSQL, where several processes may serve one key, the bucket that
 * decides is the shared one (lib/rate-limit/store.ts). This process's own bucket is asked first: it
 * turns away a flood against this process without a database write, and since it sees only this
 * process's part of the key's traffic it refuses only once that part alone has spent the limit.
 */
function positiveFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

export const RATE_LIMIT_PER_SECOND = positiveFromEnv("API_RATE_LIMIT_PER_SECOND", 100);
export const RATE_LIMIT_BURST = Math.max(1, Math.floor(positiveFromEnv("API_RATE_LIMIT_BURST", 200)));
/** Bounds memory under a flood of distinct keys (for example spoofed addresses on public routes). */
export const RATE_LIMIT_MAX_KEYS = 10_000;

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

type Bucket = { tokens: number; updatedMs: number };

// On globalThis: Next's bundled copy of this module and server.ts's copy must count one key once.
const shared = globalThis as unknown as { __rateBuckets?: Map<string, Bucket> };
const buckets = (shared.__rateBuckets ??= new Map<string, Bucket>());

function refill(bucket: Bucket, now: number): void {
  const elapsedSeconds = Math.max(0, now - bucket.updatedMs) / 1000;
  bucket.tokens = Math.min(RATE_LIMIT_BURST, bucket.tokens + elapsedSeconds * RATE_LIMIT_PER_SECOND);
  bucket.updatedMs = now;
}

/**
 * The map is kept in least-recently-used order (re-inserted on each use), so eviction drops the
 * key idle the longest; an idle bucket has refilled to full, so forgetting it grants nothing extra.
 */
function bucketFor(key: string, now: number): Bucket {
  const existing = buckets.get(key);
  if (existing) {
    buckets.delete(key);
    buckets.set(key, existing);
    refill(existing, now);
    return existing;
  }
  while (buckets.size >= RATE_LIMIT_MAX_KEYS) {
    const oldest = buckets.keys().next().value;
    if (oldest === undefined) break;
    buckets.delete(oldest);
  }
  const created = { tokens: RATE_LIMIT_BURST, updatedMs: now };
  buckets.set(key, created);
  return created;
}

export function takeToken(key: string, now = Date.now()): RateDecision {
  const bucket = bucketFor(key, now);
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return { ok: true };
  }
  const secondsToNextToken = (1 - bucket.tokens) / RATE_LIMIT_PER_SECOND;
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(secondsToNextToken)) };
}

// Production never changes it, so every process names a key's shared bucket alike; a test's reset
// moves to fresh shared buckets (rows left behind expire and are swept).
const generations = globalThis as unknown as { __rateGeneration?: string };

/** The per-key API limit: this process's bucket, then (on PostgreSQL) the bucket all processes share. */
export async function takeApiToken(key: string): Promise<RateDecision> {
  const local = takeToken(key);
  if (!local.ok || !sharedStoreInUse()) return local;
  return takeSharedToken(`api:${generations.__rateGeneration ?? ""}${key}`, RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST);
}

/** Forgets every bucket; tests use it to start from a full burst. */
export function resetRateLimits(): void {
  buckets.clear();
  generations.__rateGeneration = `${randomUUID()}:`;
}

export function countTrackedKeys(): number {
  return buckets.size;
}

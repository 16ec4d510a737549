import { clearShared, countInSharedWindow, holdShared, sharedStoreInUse, sharedWindowWait, uncountInSharedWindow } from "./store";
import { recordRateLimitRefusal } from "@/lib/metrics/record";

/**
 * Fixed-window counter of attempts, the one every limit of the product counts with: sign-in and
 * sign-up (lib/auth/limits.ts, lib/auth/sign-in-limit.ts), the API (lib/api/rate-limit.ts) and Pay.
 * `createRateLimiter` keeps the counts in process memory; `createSharedRateLimiter`, which every
 * limit of the product uses, shares them across processes on PostgreSQL.
 *
 * There is no way to ask "may I?" without counting: an attempt is counted before it is judged and
 * forgiven when it turns out not to count (a success). A separate check and count let simultaneous
 * requests all pass the check while the first are still being judged.
 */
export type RateLimiter = {
  /** Counts one attempt: the attempts in the window so far, this one included, and the seconds until it ends. */
  add: (key: string, now?: number) => { count: number; secondsLeft: number };
  /** Takes back one attempt counted in the current window. */
  forgive: (key: string, now?: number) => void;
  reset: (key: string) => void;
};

export function createRateLimiter(windowMs: number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const current = (key: string, now: number) => {
    const entry = windows.get(key);
    return entry && now - entry.start < windowMs ? entry : undefined;
  };
  return {
    add(key, now = Date.now()) {
      let entry = current(key, now);
      if (entry) entry.count += 1;
      else {
        // Dropping the oldest window (not all of them) keeps every recent lockout in force under a flood.
        if (windows.size >= 50_000) windows.delete(windows.keys().next().value!);
        windows.set(key, (entry = { start: now, count: 1 }));
      }
      return { count: entry.count, secondsLeft: Math.max(1, Math.ceil((entry.start + windowMs - now) / 1000)) };
    },
    forgive(key, now = Date.now()) {
      const entry = current(key, now);
      if (entry) entry.count = Math.max(0, entry.count - 1);
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

/** One counted attempt, as `SharedRateLimiter.attempt` answers it. */
export type Attempt = {
  /** The attempts counted in the window, this one included. */
  count: number;
  /** Past the limit: the seconds until the window ends (the attempt must not be judged). Else 0. */
  retryAfterSeconds: number;
  /** Takes this attempt back (it succeeded, or was not judged); a second call does nothing. */
  forgive: () => Promise<void>;
};

/** The limiter every limit uses, shared by every process on one PostgreSQL. */
export type SharedRateLimiter = {
  /**
   * Counts one attempt, in one step, before it is judged. Past the limit the caller refuses it
   * unjudged; otherwise it judges it and forgives the attempt when it should not count.
   */
  attempt: (key: string) => Promise<Attempt>;
  /** Forgets every attempt of the key (a success that ends its failures). */
  reset: (key: string) => Promise<void>;
};

// On globalThis, by name: Next's bundled copy of this module and server.ts's copy (and two limiters
// of one name) count one key once, as two processes on one PostgreSQL do.
const windows = globalThis as unknown as { __rateWindows?: Map<string, RateLimiter> };

/** Forgets this process's counts, as a newly started instance has none (the shared ones stay). */
export function forgetLocalWindows(): void {
  windows.__rateWindows?.clear();
}

/**
 * A limiter every process on one PostgreSQL shares (table `rate_limits`, lib/rate-limit/store.ts),
 * so a second instance cannot grant another allowance; on the embedded PGlite (one process per
 * data directory) a counter in this process's memory. `name` keeps limiters apart; limiters of one
 * name are one limiter.
 */
export function createSharedRateLimiter(name: string, limit: number, windowMs: number): SharedRateLimiter {
  const memory = () => {
    windows.__rateWindows ??= new Map();
    let limiter = windows.__rateWindows.get(name);
    if (!limiter) windows.__rateWindows.set(name, (limiter = createRateLimiter(windowMs)));
    return limiter;
  };
  const key = (k: string) => `${name}:${k}`;
  const add = (k: string) => (sharedStoreInUse() ? countInSharedWindow(key(k), windowMs) : Promise.resolve(memory().add(k)));
  const forgive = async (k: string) => {
    if (sharedStoreInUse()) await uncountInSharedWindow(key(k));
    else memory().forgive(k);
  };
  return {
    async attempt(k) {
      const { count, secondsLeft } = await add(k);
      if (count > limit) recordRateLimitRefusal(name);
      let forgiven = false;
      return {
        count,
        retryAfterSeconds: count > limit ? secondsLeft : 0,
        async forgive() {
          if (forgiven) return;
          forgiven = true;
          await forgive(k);
        },
      };
    },
    async reset(k) {
      if (sharedStoreInUse()) await clearShared(key(k));
      else memory().reset(k);
    },
  };
}

/** A wait imposed on a key: `hold` starts (or lengthens) it, `wait` answers the seconds left, or 0. */
export type SharedHold = {
  hold: (key: string, ms: number) => Promise<void>;
  wait: (key: string) => Promise<number>;
  release: (key: string) => Promise<void>;
};

const holds = globalThis as unknown as { __rateHolds?: Map<string, number> };

/** Holds shared like the limiters above: on PostgreSQL for every process, on PGlite in this process. */
export function createSharedHold(name: string): SharedHold {
  const key = (k: string) => `${name}:${k}`;
  const memory = () => (holds.__rateHolds ??= new Map());
  return {
    async hold(k, ms) {
      if (sharedStoreInUse()) return holdShared(key(k), ms);
      const until = Date.now() + ms;
      if (memory().size >= 50_000) memory().delete(memory().keys().next().value!);
      memory().set(key(k), Math.max(until, memory().get(key(k)) ?? 0));
    },
    async wait(k) {
      if (sharedStoreInUse()) return sharedWindowWait(key(k), 1);
      const left = (memory().get(key(k)) ?? 0) - Date.now();
      return left > 0 ? Math.ceil(left / 1000) : 0;
    },
    async release(k) {
      if (sharedStoreInUse()) await clearShared(key(k));
      else memory().delete(key(k));
    },
  };
}

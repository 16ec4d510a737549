/**
 * Fixed-window counter of failed attempts (../shared/REFERENCE.md "Limits": sign-in 10 attempts
 * per 15 minutes per account and per address). Only failures count, so a team signing in from
 * one office address is never locked out by its own successful sign-ins. Kept in process memory:
 * the app runs as one process per data directory.
 */
export type RateLimiter = {
  /** Seconds to wait before another attempt is allowed, or 0. */
  check: (key: string, now?: number) => number;
  /** Counts one failed attempt. */
  fail: (key: string, now?: number) => void;
  reset: (key: string) => void;
};

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const current = (key: string, now: number) => {
    const entry = windows.get(key);
    return entry && now - entry.start < windowMs ? entry : undefined;
  };
  return {
    check(key, now = Date.now()) {
      const entry = current(key, now);
      return entry && entry.count >= limit ? Math.ceil((entry.start + windowMs - now) / 1000) : 0;
    },
    fail(key, now = Date.now()) {
      const entry = current(key, now);
      if (entry) entry.count += 1;
      else {
        // Dropping the oldest window (not all of them) keeps every recent lockout in force under a flood.
        if (windows.size >= 50_000) windows.delete(windows.keys().next().value!);
        windows.set(key, { start: now, count: 1 });
      }
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

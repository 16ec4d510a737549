/**
 * Fixed-window attempt counter (../shared/REFERENCE.md "Limits": sign-in 10 attempts per 15 minutes
 * per account and per address). Kept in process memory: the app runs as one process per data directory.
 */
export type RateLimiter = {
  /** Counts one attempt; returns the seconds to wait when over the limit, else 0. */
  hit: (key: string, now?: number) => number;
  reset: (key: string) => void;
};

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key, now = Date.now()) {
      const current = windows.get(key);
      if (!current || now - current.start >= windowMs) {
        if (windows.size > 50_000) windows.clear();
        windows.set(key, { start: now, count: 1 });
        return 0;
      }
      current.count += 1;
      return current.count > limit ? Math.ceil((current.start + windowMs - now) / 1000) : 0;
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

import { cachingAllowed, clearedOnReconnect } from "./invalidation";

/**
 * A small time-bounded cache kept on globalThis, so that Next's bundled modules and the lean
 * API server (server.ts) share one copy in the process: a write on one path invalidates the other.
 * A cache made with `acrossProcesses` is invalidated in other processes too (./invalidation.ts:
 * LISTEN/NOTIFY on PostgreSQL): it stores nothing until this process listens, and starts empty
 * again whenever the listener reconnects. Entries also expire on their own, which bounds
 * staleness should a notification ever be lost.
 */
export type SharedCache<V> = {
  get: (key: string, now?: number) => { value: V } | undefined;
  set: (key: string, value: V, now?: number) => void;
  deleteWhere: (test: (key: string, value: V) => boolean) => void;
  clear: () => void;
};

type Entry<V> = { value: V; expires: number };

const registry = globalThis as unknown as { __sharedCaches?: Map<string, Map<string, Entry<unknown>>> };

export type SharedCacheOptions = { maxEntries?: number; acrossProcesses?: boolean };

export function sharedCache<V>(name: string, ttlMs: number, options: SharedCacheOptions | number = {}): SharedCache<V> {
  const { maxEntries = 10_000, acrossProcesses = false } = typeof options === "number" ? { maxEntries: options } : options;
  registry.__sharedCaches ??= new Map();
  let store = registry.__sharedCaches.get(name) as Map<string, Entry<V>> | undefined;
  if (!store) {
    store = new Map();
    registry.__sharedCaches.set(name, store as Map<string, Entry<unknown>>);
  }
  const entries = store;
  if (acrossProcesses) clearedOnReconnect(() => entries.clear());
  return {
    get(key, now = Date.now()) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now) {
        entries.delete(key);
        return undefined;
      }
      return { value: entry.value };
    },
    set(key, value, now = Date.now()) {
      if (acrossProcesses && !cachingAllowed()) return;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, expires: now + ttlMs });
    },
    deleteWhere(test) {
      for (const [key, entry] of entries) if (test(key, entry.value)) entries.delete(key);
    },
    clear() {
      entries.clear();
    },
  };
}

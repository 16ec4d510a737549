import { randomUUID } from "node:crypto";
import { databaseUrl } from "@/lib/config";
import { logger } from "@/lib/logger";

/**
 * Cache invalidation across processes. A cache names its invalidations (`"api-keys:revoked"`,
 * `"routes:merchant"`) with `invalidation(topic, apply)`; calling the returned function applies the
 * change in this process at once and tells every other process on the same PostgreSQL through
 * LISTEN/NOTIFY, which applies it when the notification arrives (milliseconds later).
 *
 * One code path for both databases: on the embedded PGlite there is one process per data
 * directory, so the transport is local and publishing does nothing more.
 *
 * A process only keeps entries while it is listening (`cachingAllowed`): an entry stored before the
 * LISTEN took effect could miss the notification that should remove it. Each (re)connection of the
 * listener clears every cross-process cache, because notifications sent while it was away are lost.
 *
 * State lives on globalThis: Next's bundled copy of this module and server.ts's copy share one
 * listener and one set of handlers.
 */
const INVALIDATION_CHANNEL = "cache_invalidation";

type Message = { from: string; topic: string; arg: string };

type Transport = {
  /** True once notifications from other processes reach this one. */
  listening: () => boolean;
  publish: (message: Message) => Promise<void>;
  stop: () => Promise<void>;
};

type State = {
  instance: string;
  handlers: Map<string, (arg: string) => void>;
  clearers: Set<() => void>;
  transport?: Transport;
  listening: boolean;
};

const holder = globalThis as unknown as { __cacheInvalidation?: State };
const state: State = (holder.__cacheInvalidation ??= {
  instance: randomUUID(),
  handlers: new Map(),
  clearers: new Set(),
  listening: false,
});

function receive(raw: string): void {
  let message: Message;
  try {
    message = JSON.parse(raw) as Message;
  } catch {
    return;
  }
  if (message.from === state.instance) return;
  state.handlers.get(message.topic)?.(message.arg);
}

function clearAll(): void {
  for (const clear of state.clearers) clear();
}

const localTransport: Transport = { listening: () => true, publish: async () => {}, stop: async () => {} };

function postgresTransport(url: string): Transport {
  // One small client of its own: postgres.js gives LISTEN a dedicated connection, NOTIFY uses the other.
  const started = import("postgres").then(({ default: postgres }) => {
    const sql = postgres(url, { max: 1, onnotice: () => {}, idle_timeout: 60 });
    void sql
      .listen(INVALIDATION_CHANNEL, receive, () => {
        clearAll();
        state.listening = true;
      })
      .catch((error: unknown) => logger.error("cache invalidation: listen failed", { error }));
    return sql;
  });
  return {
    listening: () => state.listening,
    async publish(message) {
      try {
        const sql = await started;
        await sql.notify(INVALIDATION_CHANNEL, JSON.stringify(message));
      } catch (error) {
        // The entry still expires on its own (each cache's TTL): late, never wrong for longer than that.
        logger.error("cache invalidation: notify failed", { error, topic: message.topic });
      }
    },
    async stop() {
      const sql = await started.catch(() => undefined);
      await sql?.end({ timeout: 1 });
    },
  };
}

function transport(): Transport {
  if (!state.transport) {
    const url = databaseUrl();
    state.transport = url ? postgresTransport(url) : localTransport;
  }
  return state.transport;
}

/**
 * May a cross-process cache store an entry now? Starts the listener on first use (PostgreSQL);
 * false until it listens, so the first requests of a process read the database.
 */
export function cachingAllowed(): boolean {
  return transport().listening();
}

/** Registers a cache's `clear`, run whenever the listener (re)connects. */
export function clearedOnReconnect(clear: () => void): void {
  state.clearers.add(clear);
}

/**
 * Names an invalidation. The returned function runs `apply(arg)` here at once and in every other
 * process once notified; await it to know the notification has been sent.
 */
export function invalidation(topic: string, apply: (arg: string) => void): (arg: string) => Promise<void> {
  state.handlers.set(topic, apply);
  return async (arg) => {
    apply(arg);
    await transport().publish({ from: state.instance, topic, arg });
  };
}

/** Closes the listener (a process that ends on its own, such as a test run); caches stop storing. */
export async function stopCacheInvalidation(): Promise<void> {
  const current = state.transport;
  state.transport = undefined;
  state.listening = false;
  await current?.stop();
}

/** This process's id in notifications (tests). */
export function instanceId(): string {
  return state.instance;
}

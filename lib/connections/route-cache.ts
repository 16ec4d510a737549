import { invalidation } from "@/lib/cache/invalidation";
import { sharedCache } from "@/lib/cache/shared-cache";

/**
 * Routing answers per merchant, service and mode, kept for a few seconds so that creating an
 * invoice costs one database statement. Every connection write forgets the merchant's entries at
 * once in this process and, through a notification, in the other processes on the same PostgreSQL.
 */
const ROUTE_CACHE_TTL_MS = 5_000;

export const routeCache = sharedCache<unknown>("routes", ROUTE_CACHE_TTL_MS, { acrossProcesses: true });

export function routeCacheKey(merchantId: string, service: string, mode: string): string {
  return `${merchantId}|${service}|${mode}`;
}

// A lookup that started before a write must not store its answer after the write forgot the old
// one: each forget moves the merchant's epoch on, and an answer is kept only if it did not move.
const shared = globalThis as unknown as { __routeEpochs?: Map<string, number> };
const epochs = (shared.__routeEpochs ??= new Map<string, number>());

export function routeEpoch(merchantId: string): number {
  return epochs.get(merchantId) ?? 0;
}

const forgetEverywhere = invalidation("routes:merchant", (merchantId) => {
  if (epochs.size > 100_000) epochs.clear();
  epochs.set(merchantId, routeEpoch(merchantId) + 1);
  routeCache.deleteWhere((key) => key.startsWith(`${merchantId}|`));
});

/** At once here; other processes as soon as the notification reaches them (it is not awaited). */
export function forgetRoutes(merchantId: string): void {
  void forgetEverywhere(merchantId);
}

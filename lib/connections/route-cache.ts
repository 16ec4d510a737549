import { sharedCache } from "@/lib/cache/shared-cache";

/**
 * Routing answers per merchant, service and mode, kept for a few seconds so that creating an
 * invoice costs one database statement. Every connection write forgets the merchant's entries at
 * once in this process; other processes on the same PostgreSQL see the change within the TTL.
 */
export const ROUTE_CACHE_TTL_MS = 5_000;

export const routeCache = sharedCache<unknown>("routes", ROUTE_CACHE_TTL_MS);

export function routeCacheKey(merchantId: string, service: string, mode: string): string {
  return `${merchantId}|${service}|${mode}`;
}

export function forgetRoutes(merchantId: string): void {
  routeCache.deleteWhere((key) => key.startsWith(`${merchantId}|`));
}

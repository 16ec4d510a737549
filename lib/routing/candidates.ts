import { and, eq, isNull } from "drizzle-orm";
import { routeCache, routeCacheKey, routeEpoch } from "@/lib/connections/route-cache";
import type { Db } from "@/lib/db/client";
import { connections, routingOrders } from "@/lib/db/schema";
import { getKind, servicesForConnection, type Mode } from "@/lib/providers";
import { mergeOrder } from "./order";

/** A connection an invoice may go to, with what customer resolution needs; never its secrets. */
export type RouteCandidate = {
  connectionId: string;
  provider: string;
  kind: string;
  constants: Record<string, string>;
  /** 1-based place among the candidates: 1 takes new invoices, the rest are the cascade order. */
  position: number;
};

export type RouteRequest = { service: string; mode: Mode };

/** Whether a connection offers a service depends on its public credentials (currency, features). */
export function offersService(
  row: { provider: string; kind: string; publicCredentials: Record<string, unknown> },
  service: string,
): boolean {
  const kind = getKind(row.provider, row.kind);
  if (!kind) return false;
  return servicesForConnection(row.provider, kind, row.publicCredentials).some((spec) => spec.code === service);
}

/**
 * The merchant's enabled, not deleted connections of the mode that offer the service, in routing
 * order (lib/routing/order.ts): the first is where a new invoice goes, the rest the cascade order.
 * Cached per merchant, service and mode (lib/connections/route-cache.ts) and forgotten on every
 * connection write and routing order save, so invoice creation costs at most one routing query.
 */
export async function listRouteCandidates(db: Db, merchantId: string, request: RouteRequest): Promise<readonly RouteCandidate[]> {
  const key = routeCacheKey(merchantId, request.service, request.mode);
  const cached = routeCache.get(key);
  if (cached) return cached.value as readonly RouteCandidate[];
  const epoch = routeEpoch(merchantId);
  const candidates = await queryCandidates(db, merchantId, request);
  // A lookup that started before a write must not keep its answer (see routeEpoch).
  if (routeEpoch(merchantId) === epoch) routeCache.set(key, candidates);
  return candidates;
}

/** One statement: the connections with the saved order of this service and mode beside each. */
async function queryCandidates(db: Db, merchantId: string, { service, mode }: RouteRequest): Promise<RouteCandidate[]> {
  const rows = await db
    .select({
      id: connections.id,
      provider: connections.provider,
      kind: connections.kind,
      publicCredentials: connections.publicCredentials,
      constants: connections.constants,
      createdAt: connections.createdAt,
      saved: routingOrders.connectionIds,
    })
    .from(connections)
    .leftJoin(
      routingOrders,
      and(eq(routingOrders.merchantId, merchantId), eq(routingOrders.service, service), eq(routingOrders.mode, mode)),
    )
    .where(and(eq(connections.merchantId, merchantId), eq(connections.mode, mode), eq(connections.enabled, true), isNull(connections.deletedAt)));
  const offering = rows.filter((row) => offersService(row, service));
  return mergeOrder(rows[0]?.saved ?? [], offering).map((row, index) => ({
    connectionId: row.id,
    provider: row.provider,
    kind: row.kind,
    constants: row.constants,
    position: index + 1,
  }));
}

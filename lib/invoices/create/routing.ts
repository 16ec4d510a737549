import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { routeCache, routeCacheKey, routeEpoch } from "@/lib/connections/route-cache";
import type { Db } from "@/lib/db/client";
import { connections, connectionServiceDefaults } from "@/lib/db/schema";
import { getKind, servicesForConnection, type Mode } from "@/lib/providers";

/** The connection an invoice goes to, with what customer resolution needs; never its secrets. */
export type Route = {
  connectionId: string;
  provider: string;
  kind: string;
  constants: Record<string, string>;
  isDefault: boolean;
};

export type RouteRequest = { service: string; mode: Mode };

export function offersService(
  row: { provider: string; kind: string; publicCredentials: Record<string, unknown> },
  service: string,
): boolean {
  const kind = getKind(row.provider, row.kind);
  if (!kind) return false;
  return servicesForConnection(row.provider, kind, row.publicCredentials).some((spec) => spec.code === service);
}

/**
 * Routing (issue "Rules"): the merchant's enabled, not deleted connection in the invoice's mode that
 * offers the service; among several, the one marked default for the service and mode, else the
 * oldest. One query; whether a connection offers a service depends on its public credentials
 * (currency, features), so that last filter runs here rather than in SQL.
 */
export async function findRoute(db: Db, merchantId: string, request: RouteRequest): Promise<Route | undefined> {
  const key = routeCacheKey(merchantId, request.service, request.mode);
  const cached = routeCache.get(key);
  if (cached) return cached.value as Route | undefined;
  const epoch = routeEpoch(merchantId);
  const route = await queryRoute(db, merchantId, request);
  if (routeEpoch(merchantId) === epoch) routeCache.set(key, route);
  return route;
}

async function queryRoute(db: Db, merchantId: string, { service, mode }: RouteRequest): Promise<Route | undefined> {
  const isDefault = sql<boolean>`${connectionServiceDefaults.connectionId} is not null`;
  const rows = await db
    .select({
      connectionId: connections.id,
      provider: connections.provider,
      kind: connections.kind,
      publicCredentials: connections.publicCredentials,
      constants: connections.constants,
      isDefault,
    })
    .from(connections)
    .leftJoin(
      connectionServiceDefaults,
      and(
        eq(connectionServiceDefaults.merchantId, merchantId),
        eq(connectionServiceDefaults.service, service),
        eq(connectionServiceDefaults.mode, mode),
        eq(connectionServiceDefaults.connectionId, connections.id),
      ),
    )
    .where(and(eq(connections.merchantId, merchantId), eq(connections.mode, mode), eq(connections.enabled, true), isNull(connections.deletedAt)))
    .orderBy(desc(isDefault), asc(connections.createdAt), asc(connections.id));
  const chosen = rows.find((row) => offersService(row, service));
  if (!chosen) return undefined;
  return {
    connectionId: chosen.connectionId,
    provider: chosen.provider,
    kind: chosen.kind,
    constants: chosen.constants,
    isDefault: Boolean(chosen.isDefault),
  };
}

/** The routing 422 detail: names the service and the mode, and where to fix it. */
export function noRouteDetail({ service, mode }: RouteRequest): string {
  return `No enabled ${mode}-mode connection offers ${service}; connect one on the Providers page`;
}

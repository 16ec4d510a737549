import { and, eq, isNull } from "drizzle-orm";
import { routeCache, routeCacheKey, routeEpoch } from "@/lib/connections/route-cache";
import type { Db } from "@/lib/db/client";
import { connections, merchants, routingOrders } from "@/lib/db/schema";
import { findService, getKind, servicesForConnection, type Mode } from "@/lib/providers";
import { compileRules, tableUsesSuccessRate, type RoutingTable } from "./decide";
import { mergeOrder } from "./order";
import type { RoutingRule } from "./rules";
import { DEFAULT_SUCCESS_SETTINGS, type SuccessSettings } from "./success";
import { toSuccessSettings } from "./success-stats";

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

/**
 * Everything routing reads for one service and mode: the enabled connections offering it in
 * routing order (the default rule), the rules before the default, compiled, and the labels and
 * states the routing sentence names.
 */
export type RouteSetup = {
  candidates: readonly RouteCandidate[];
  table: RoutingTable;
  rules: readonly RoutingRule[];
  /** The saved routing version (0 while never saved). */
  version: number;
  /** The merchant's success-rate ordering settings, and whether a rule orders by success rate (only then are counts read). */
  success: SuccessSettings;
  usesSuccessRate: boolean;
};

/** Whether a connection offers a service depends on its public credentials (currency, features). */
export function offersService(row: { provider: string; kind: string; publicCredentials: Record<string, unknown> }, service: string): boolean {
  const kind = getKind(row.provider, row.kind);
  if (!kind) return false;
  return servicesForConnection(row.provider, kind, row.publicCredentials).some((spec) => spec.code === service);
}

/**
 * The routing of one service and mode (see RouteSetup). Cached per merchant, service and mode
 * (lib/connections/route-cache.ts) and forgotten on every connection write and routing save, so
 * invoice creation costs at most one routing query.
 */
export async function loadRouteSetup(db: Db, merchantId: string, request: RouteRequest): Promise<RouteSetup> {
  const key = routeCacheKey(merchantId, request.service, request.mode);
  const cached = routeCache.get(key);
  if (cached) return cached.value as RouteSetup;
  const epoch = routeEpoch(merchantId);
  const setup = await querySetup(db, merchantId, request);
  // A lookup that started before a write must not keep its answer (see routeEpoch).
  if (routeEpoch(merchantId) === epoch) routeCache.set(key, setup);
  return setup;
}

/**
 * The merchant's enabled, not deleted connections of the mode that offer the service, in routing
 * order (lib/routing/order.ts): the first is where a new invoice goes when no rule applies, the
 * rest the cascade order.
 */
export async function listRouteCandidates(db: Db, merchantId: string, request: RouteRequest): Promise<readonly RouteCandidate[]> {
  return (await loadRouteSetup(db, merchantId, request)).candidates;
}

/** One statement: the mode's connections with the saved order and rules of this service beside each. */
async function querySetup(db: Db, merchantId: string, { service, mode }: RouteRequest): Promise<RouteSetup> {
  const rows = await db
    .select({
      id: connections.id,
      label: connections.label,
      enabled: connections.enabled,
      provider: connections.provider,
      kind: connections.kind,
      publicCredentials: connections.publicCredentials,
      constants: connections.constants,
      createdAt: connections.createdAt,
      saved: routingOrders.connectionIds,
      rules: routingOrders.rules,
      version: routingOrders.version,
      successWindowHours: merchants.successWindowHours,
      successMinSample: merchants.successMinSample,
      successExplorationPercent: merchants.successExplorationPercent,
    })
    .from(connections)
    .innerJoin(merchants, eq(merchants.id, connections.merchantId))
    .leftJoin(routingOrders, and(eq(routingOrders.merchantId, merchantId), eq(routingOrders.service, service), eq(routingOrders.mode, mode)))
    .where(and(eq(connections.merchantId, merchantId), eq(connections.mode, mode), isNull(connections.deletedAt)));
  const labels = new Map<string, string>();
  const unusable = new Map<string, string>();
  const providers = new Map<string, string>();
  const offering: typeof rows = [];
  for (const row of rows) {
    labels.set(row.id, row.label);
    providers.set(row.id, row.provider);
    if (!offersService(row, service)) unusable.set(row.id, `does not offer ${service}`);
    else if (!row.enabled) unusable.set(row.id, "disabled");
    else offering.push(row);
  }
  const saved = rows[0]?.saved ?? [];
  const rules = (rows[0]?.rules ?? []) as RoutingRule[];
  const candidates = mergeOrder(saved, offering).map((row, index) => ({
    connectionId: row.id,
    provider: row.provider,
    kind: row.kind,
    constants: row.constants,
    position: index + 1,
  }));
  const currency = findService(service)?.currency ?? "";
  const table: RoutingTable = {
    rules: compileRules(rules, currency),
    defaultOrder: candidates.map((candidate) => candidate.connectionId),
    defaultSkipped: saved.filter((id) => unusable.get(id) === "disabled"),
    labels,
    unusable,
    providers,
  };
  const success = rows[0] ? toSuccessSettings(rows[0]) : DEFAULT_SUCCESS_SETTINGS;
  return { candidates, table, rules, version: rows[0]?.version ?? 0, success, usesSuccessRate: tableUsesSuccessRate(table) };
}

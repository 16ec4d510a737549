import type { Db } from "@/lib/db/client";
import type { RoutingReason } from "@/lib/db/enums";
import type { Result } from "@/lib/problems";
import { listRouteCandidates, type RouteCandidate, type RouteRequest } from "@/lib/routing/candidates";
import { findPinnedRoute } from "@/lib/routing/pin";

/** The connection an invoice goes to, with what customer resolution needs and why it was chosen. */
export type Route = Pick<RouteCandidate, "connectionId" | "provider" | "kind" | "constants"> & { reason: RoutingReason };

export type { RouteRequest } from "@/lib/routing/candidates";

/**
 * Routing of a new invoice: the first of the merchant's routing order for the service
 * and mode, among enabled connections. Cached: on the hot path this is at most one query.
 */
export async function findRoute(db: Db, merchantId: string, request: RouteRequest): Promise<(Route & Pick<RouteCandidate, "position">) | undefined> {
  const [first] = await listRouteCandidates(db, merchantId, request);
  return first && { ...first, reason: "routing_order" };
}

/** A pinned invoice goes to the connection it names, or is refused with problems at the pin. */
export async function findPinnedInvoiceRoute(db: Db, merchantId: string, request: RouteRequest & { connectionId: string }): Promise<Result<Route>> {
  const pinned = await findPinnedRoute(db, merchantId, request);
  return pinned.ok ? { ok: true, value: { ...pinned.value, reason: "pinned" } } : pinned;
}

/** The routing 422 detail: names the service and the mode, and where to fix it. */
export function noRouteDetail({ service, mode }: RouteRequest): string {
  return `No enabled ${mode}-mode connection offers ${service}; connect one on the Providers page`;
}

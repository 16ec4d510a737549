import type { Db } from "@/lib/db/client";
import type { RoutingReason } from "@/lib/db/enums";
import type { Result } from "@/lib/problems";
import { loadRouteSetup, type RouteCandidate, type RouteRequest } from "@/lib/routing/candidates";
import { decideRoute, type RouteFacts } from "@/lib/routing/decide";
import { toStoredDetail, type RoutingDetail } from "@/lib/routing/detail";
import { findPinnedRoute } from "@/lib/routing/pin";
import { successSnapshotFor } from "@/lib/routing/success-stats";

/** The connection an invoice goes to, with what customer resolution needs and why it was chosen. */
export type Route = Pick<RouteCandidate, "connectionId" | "provider" | "kind" | "constants"> & { reason: RoutingReason; detail: RoutingDetail | null };

export type { RouteRequest } from "@/lib/routing/candidates";

/** Facts for a lookup that has no invoice (tests, the composer's preview): rules on the card wait. */
const NOTHING_KNOWN: RouteFacts = { amountMinor: 0n, customerCountry: null, card: undefined };

/**
 * Routing of a new invoice: the merchant's rules for the service and mode, then the default rule
 * (the routing order), among enabled connections (lib/routing/decide.ts). Cached: on the hot path
 * this is at most one query.
 */
export async function findRoute(
  db: Db,
  merchantId: string,
  request: RouteRequest,
  facts: RouteFacts = NOTHING_KNOWN,
  random: () => number = Math.random,
): Promise<(Route & Pick<RouteCandidate, "position">) | undefined> {
  const setup = await loadRouteSetup(db, merchantId, request);
  const success = await successSnapshotFor(db, merchantId, request.service, setup, random);
  const decision = decideRoute(setup.table, facts, random, success);
  const first = decision.connectionIds[0];
  const candidate = first === undefined ? undefined : setup.candidates.find((entry) => entry.connectionId === first);
  if (!candidate) return undefined;
  return {
    ...candidate,
    reason: "routing_order",
    detail: toStoredDetail(decision, { decidedAt: "creation", version: setup.version, customerCountry: facts.customerCountry }),
  };
}

/** A pinned invoice goes to the connection it names, or is refused with problems at the pin. */
export async function findPinnedInvoiceRoute(db: Db, merchantId: string, request: RouteRequest & { connectionId: string }): Promise<Result<Route>> {
  const pinned = await findPinnedRoute(db, merchantId, request);
  return pinned.ok ? { ok: true, value: { ...pinned.value, reason: "pinned", detail: null } } : pinned;
}

/** The routing 422 detail: names the service and the mode, and where to fix it. */
export function noRouteDetail({ service, mode }: RouteRequest): string {
  return `No enabled ${mode}-mode connection offers ${service}; connect one on the Providers page`;
}

/** A saved card's holder: its provider and the connection that got the token (lib/payment-methods). */
export type SavedCardHolder = { provider: string; connectionId: string };

/**
 * Routing of a saved-card charge: only connections of the provider that holds the token,
 * in the invoice's mode, can use it. The holding connection first when it is enabled and offers the
 * service, then the provider's other connections in the order the merchant's routing decided (the
 * rest of the routing order after them); the charge cascades among these only
 * (lib/processing/targets.ts). Undefined when none of the provider's connections can take it.
 */
export async function findSavedCardRoute(
  db: Db,
  merchantId: string,
  request: RouteRequest,
  facts: RouteFacts,
  holder: SavedCardHolder,
  random: () => number = Math.random,
): Promise<Route | undefined> {
  const setup = await loadRouteSetup(db, merchantId, request);
  const decision = decideRoute(setup.table, facts, random, await successSnapshotFor(db, merchantId, request.service, setup, random));
  const ofProvider = (id: string) => setup.candidates.some((entry) => entry.connectionId === id && entry.provider === holder.provider);
  const decided = decision.connectionIds.filter(ofProvider);
  const rest = setup.candidates.map((entry) => entry.connectionId).filter((id) => ofProvider(id) && !decided.includes(id));
  const ordered = [...decided, ...rest].sort((a, b) => Number(b === holder.connectionId) - Number(a === holder.connectionId));
  const candidate = setup.candidates.find((entry) => entry.connectionId === ordered[0]);
  if (!candidate) return undefined;
  const explanation = `Charging a saved card: only connections of ${holder.provider}, which holds its token, can take it (the holding connection first).`;
  const detail = toStoredDetail(
    { ...decision, connectionIds: ordered, explanation },
    { decidedAt: "creation", version: setup.version, customerCountry: facts.customerCountry },
  );
  return { ...candidate, reason: "routing_order", detail };
}

import type { JsonApiResource } from "@/lib/api/responses";
import { publicBaseUrl } from "@/lib/config";
import type { Problem } from "@/lib/problems";
import { successRateAttributeOf } from "./detail";
import type { RoutingOrder } from "./orders";
import type { RoutingRule } from "./rules";
import type { Simulation } from "./simulate";

export type RoutingOrderAttributes = {
  service: string;
  currency: string;
  direction: "payment" | "payout";
  mode: "test" | "live";
  /** Every connection offering the service in the mode, first to last; disabled ones keep their place. */
  connection_ids: string[];
  rules: RoutingRule[];
  version: number;
  connections: { id: string; label: string; provider: string; kind: string; enabled: boolean; position: number }[];
  /** Last save, ISO 8601 UTC; null while the order is the implicit oldest first. */
  updated: string | null;
};

/** The management API's routing order (type "routing-order", id "payment_card_eur_hpp:test"). */
export function toRoutingOrderResource(order: RoutingOrder): JsonApiResource<RoutingOrderAttributes> {
  return {
    type: "routing-order",
    id: order.id,
    attributes: {
      service: order.service,
      currency: order.currency,
      direction: order.direction,
      mode: order.mode,
      connection_ids: order.connections.map((connection) => connection.connectionId),
      rules: order.rules,
      version: order.version,
      connections: order.connections.map((connection) => ({
        id: connection.connectionId,
        label: connection.label,
        provider: connection.provider,
        kind: connection.kind,
        enabled: connection.enabled,
        position: connection.position,
      })),
      updated: order.updatedAt?.toISOString() ?? null,
    },
    relationships: {
      connections: { data: order.connections.map((connection) => ({ type: "connection", id: connection.connectionId })) },
    },
    // Absolute, on the public base URL (APP_URL); the colon of service:mode is a valid path character.
    links: { self: `${publicBaseUrl()}/api/routing/${order.id}` },
  };
}

/** saveRoutingOrder names the list `connectionIds`; the API's attribute is `connection_ids`. */
export function toAttributeProblems(problems: readonly Problem[]): Problem[] {
  return problems.map((entry) => (entry.path[0] === "connectionIds" ? { ...entry, path: ["connection_ids", ...entry.path.slice(1)] } : entry));
}

/** The simulator's answer, as the API and the Routing page show it. */
export function toSimulationAttributes(simulation: Simulation) {
  const { decision } = simulation;
  return {
    service: simulation.service,
    mode: simulation.mode,
    version: simulation.version,
    rule: decision.rule,
    branch: decision.branch,
    connection_ids: decision.connectionIds,
    connections: simulation.order,
    skipped: decision.skipped,
    waiting_for_card: decision.waitingForCard,
    fell_through: decision.fellThrough,
    card: simulation.card,
    success_rate: successRateAttributeOf(decision.success),
    explanation: decision.explanation,
  };
}

export type SimulationAttributes = ReturnType<typeof toSimulationAttributes>;

import type { JsonApiResource } from "@/lib/api/responses";
import { publicBaseUrl } from "@/lib/config";
import type { Problem } from "@/lib/problems";
import { successRateAttributeOf } from "@/lib/routing/detail";
import type { RoutingOrder } from "@/lib/routing/orders";
import type { RoutingRule } from "@/lib/routing/rules";
import type { Simulation } from "@/lib/routing/simulate";
import type { ConnectionNote, VersionChange } from "@/lib/routing/version-diff";
import type { RollbackOutcome, RoutingVersion, VersionComparison } from "@/lib/routing/versions";

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
    three_ds: decision.threeDs,
    explanation: decision.explanation,
  };
}

export type SimulationAttributes = ReturnType<typeof toSimulationAttributes>;

/** A version's id in the management API: `payment_card_eur_hpp:test:3`. */
const routingVersionId = (order: Pick<RoutingOrder, "id">, version: number) => `${order.id}:${version}`;

/** The management API's routing version (type "routing-version"). */
export function toRoutingVersionResource(order: RoutingOrder, version: RoutingVersion) {
  return {
    type: "routing-version",
    id: routingVersionId(order, version.version),
    attributes: {
      service: order.service,
      mode: order.mode,
      version: version.version,
      current: version.current,
      restored_from: version.restoredFrom,
      summary: version.summary,
      saved_by: version.savedBy,
      saved: version.savedAt.toISOString(),
      connection_ids: version.connectionIds,
      rules: version.rules,
    },
    links: { self: `${publicBaseUrl()}/api/routing/${order.id}/versions/${version.version}` },
  } satisfies JsonApiResource<unknown>;
}

const changeAttributes = (change: VersionChange) => ({
  kind: change.kind,
  sentence: change.sentence,
  rule: change.rule ?? null,
  connection_id: change.connectionId ?? null,
});

const noteAttributes = (note: ConnectionNote) => ({ connection_id: note.connectionId, state: note.state, sentence: note.sentence });

/** The comparison of two versions (type "routing-comparison", id "payment_card_eur_hpp:test:1..3"). */
export function toRoutingComparisonResource(order: RoutingOrder, comparison: VersionComparison) {
  return {
    type: "routing-comparison",
    id: `${order.id}:${comparison.from}..${comparison.to}`,
    attributes: {
      service: order.service,
      mode: order.mode,
      from: comparison.from,
      to: comparison.to,
      identical: comparison.changes.length === 0,
      changes: comparison.changes.map(changeAttributes),
      notes: comparison.notes.map(noteAttributes),
    },
  } satisfies JsonApiResource<unknown>;
}

/** What a rollback answered besides the routing order: the document's meta. */
export function rollbackMeta(outcome: RollbackOutcome) {
  return { restored: outcome.restored, version: outcome.version, changed: outcome.version !== null, message: outcome.message };
}

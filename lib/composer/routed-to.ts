import { ROUTING_REASONS, type RoutingReason } from "@/lib/db/enums";
import { routingReasonText } from "@/lib/routing/reason";
import type { ComposerConnection } from "./connections";

/** Where the API routed a composed invoice and why, read from its JSON:API answer (the stored reason and rule). */
export type RoutedTo = {
  connectionId: string;
  label: string;
  providerName: string | null;
  reason: RoutingReason | null;
  rule: { position: number; name: string } | null;
};

function member(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function ruleOf(routing: unknown): RoutedTo["rule"] {
  const rule = member(routing, "rule");
  const position = member(rule, "position");
  const name = member(rule, "name");
  return typeof position === "number" && typeof name === "string" ? { position, name } : null;
}

export function routedTo(body: unknown, connections: readonly ComposerConnection[]): RoutedTo | undefined {
  const data = member(body, "data");
  const id = member(member(member(member(data, "relationships"), "connection"), "data"), "id");
  if (typeof id !== "string") return undefined;
  const routing = member(member(data, "attributes"), "routing");
  const reason = member(routing, "reason");
  const connection = connections.find((c) => c.id === id);
  return {
    connectionId: id,
    label: connection?.label ?? id,
    providerName: connection?.providerName ?? null,
    reason: ROUTING_REASONS.includes(reason as RoutingReason) ? (reason as RoutingReason) : null,
    rule: ruleOf(routing),
  };
}

/** "Routed to F sandbox (Provider F) — Routing rule 1: Large EUR", in the invoice page's words. */
export function routedToText(routed: RoutedTo): string {
  const provider = routed.providerName ? ` (${routed.providerName})` : "";
  return `Routed to ${routed.label}${provider}${routed.reason ? ` — ${routingReasonText(routed.reason, routed.rule)}` : ""}`;
}

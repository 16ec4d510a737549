import type { RoutingReason } from "@/lib/db/enums";
import type { ComposerConnection } from "./connections";

/** Where the API routed a composed invoice and why, read from its JSON:API answer. */
export type RoutedTo = { connectionId: string; label: string; providerName: string | null; reason: RoutingReason | null };

const BECAUSE: Readonly<Record<RoutingReason, string>> = {
  pinned: "pinned",
  routing_order: "first in your routing order",
  cascaded: "cascaded after a soft failure",
};

const REASONS = Object.keys(BECAUSE) as RoutingReason[];

function member(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

export function routedTo(body: unknown, connections: readonly ComposerConnection[]): RoutedTo | undefined {
  const data = member(body, "data");
  const id = member(member(member(member(data, "relationships"), "connection"), "data"), "id");
  if (typeof id !== "string") return undefined;
  const reason = member(member(member(data, "attributes"), "routing"), "reason");
  const connection = connections.find((c) => c.id === id);
  return {
    connectionId: id,
    label: connection?.label ?? id,
    providerName: connection?.providerName ?? null,
    reason: REASONS.includes(reason as RoutingReason) ? (reason as RoutingReason) : null,
  };
}

/** "Routed to F sandbox (Provider F) — pinned". */
export function routedToText(routed: RoutedTo): string {
  const provider = routed.providerName ? ` (${routed.providerName})` : "";
  return `Routed to ${routed.label}${provider}${routed.reason ? ` — ${BECAUSE[routed.reason]}` : ""}`;
}

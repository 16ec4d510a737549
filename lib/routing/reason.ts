import type { RoutingReason } from "@/lib/db/enums";

/**
 * How the dashboard names why an invoice went to its connection, as a short label and
 * a sentence. Isomorphic: the composer's result, the invoice list and the invoice page use it.
 */
const ROUTING_REASON_LABELS: Readonly<Record<RoutingReason, string>> = {
  pinned: "Pinned",
  routing_order: "First in routing order",
  cascaded: "Cascaded after a soft failure",
};

export const ROUTING_REASON_HELP: Readonly<Record<RoutingReason, string>> = {
  pinned: "The request named this connection (data.relationships.connection); pinned invoices do not cascade.",
  routing_order: "Your routing rules for this service and mode, or when none applied the first enabled connection of your routing order.",
  cascaded: "An earlier connection of your routing order failed softly, so the next one took the invoice.",
};

/**
 * The one wording of why an invoice went to its connection, from what the invoice stored: its
 * reason and the rule that decided it. A rule's name wins over "First in routing order" (the
 * routing order is only the default rule); a cascade names the cascade, since the rule chose an
 * earlier connection. Used by the invoice list, Home, the invoice page, its attempts and the composer.
 */
export function routingReasonText(reason: RoutingReason, rule?: { position: number; name: string } | null): string {
  if (reason !== "cascaded" && rule) return `Routing rule ${rule.position}: ${rule.name}`;
  return ROUTING_REASON_LABELS[reason];
}

import type { RoutingReason } from "@/lib/db/enums";

/**
 * How the dashboard names why an invoice went to its connection, as a short label and
 * a sentence. Isomorphic: the composer's result, the invoice list and the invoice page use it.
 */
export const ROUTING_REASON_LABELS: Readonly<Record<RoutingReason, string>> = {
  pinned: "Pinned",
  routing_order: "First in routing order",
  cascaded: "Cascaded after a soft failure",
};

export const ROUTING_REASON_HELP: Readonly<Record<RoutingReason, string>> = {
  pinned: "The request named this connection (data.relationships.connection); pinned invoices do not cascade.",
  routing_order: "Your routing rules for this service and mode, or when none applied the first enabled connection of your routing order.",
  cascaded: "An earlier connection of your routing order failed softly, so the next one took the invoice.",
};

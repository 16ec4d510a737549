import "server-only";
import type { Db } from "@/lib/db/client";
import type { RoutingReason } from "@/lib/db/enums";
import type { InvoiceRow } from "@/lib/invoices/store";
import { listRouteCandidates } from "@/lib/routing/candidates";
import { capabilityAsksOf, missingCapability } from "@/lib/providers/capabilities";
import { findConnectionRow } from "@/lib/connections/queries";

export type AttemptTarget = { connectionId: string; reason: RoutingReason };

/**
 * Where the attempts of one payment request go, in order. A pinned invoice goes to its connection
 * only (no cascade). Otherwise the invoice's current connection first, then the rest of the
 * merchant's routing order for the service and mode after it: a soft failure moves down the list.
 * The routed connection is tried even if it was disabled since, because the invoice was promised to it.
 */
export async function listAttemptTargets(db: Db, invoice: InvoiceRow, options: { after?: string } = {}): Promise<AttemptTarget[]> {
  const routed = invoice.connectionId;
  if (!routed) return [];
  const firstReason: RoutingReason = invoice.routingReason ?? "routing_order";
  if (firstReason === "pinned") return options.after === undefined ? [{ connectionId: routed, reason: "pinned" }] : [];
  if (options.after !== undefined) return nextTargets(db, invoice, options.after);
  return [{ connectionId: routed, reason: firstReason }, ...(await nextTargets(db, invoice, routed))];
}

/**
 * The connections after `failedConnectionId` in the invoice's order (its rule's cascade, or the routing order): where a payout
 * cascades when a status request or a callback settles its attempt as a soft failure. Empty when
 * the failed connection was the last one, or for a pinned invoice (a pin never cascades).
 */
export async function nextTargets(db: Db, invoice: InvoiceRow, failedConnectionId: string): Promise<AttemptTarget[]> {
  if (invoice.routingReason === "pinned") return [];
  const mode = invoice.testMode ? "test" : "live";
  const candidates = await listRouteCandidates(db, invoice.merchantId, { service: invoice.service, mode });
  // A cascade, too, goes only to connections whose provider can do what the invoice asks, and a
  // saved-card charge only among the connections of the provider holding the token.
  const asks = capabilityAsksOf(invoice);
  const holder = chargesSavedCard(invoice)
    ? (candidates.find((candidate) => candidate.connectionId === invoice.connectionId)?.provider ?? (await providerOfConnection(db, invoice)))
    : undefined;
  const current = candidates
    .filter((candidate) => missingCapability(candidate.provider, asks) === undefined && (holder === undefined || candidate.provider === holder))
    .map((candidate) => candidate.connectionId);
  // A rule's outcome is its own cascade, as decided for this invoice (connections disabled since
  // are skipped); the default rule follows the routing order as it is now, as it always has.
  const decided = invoice.routingDetail;
  const ids = decided && decided.rule !== null ? decided.order.filter((id) => current.includes(id)) : current;
  const at = ids.indexOf(failedConnectionId);
  return (at >= 0 ? ids.slice(at + 1) : ids.filter((id) => id !== failedConnectionId)).map((connectionId) => ({ connectionId, reason: "cascaded" as const }));
}

/** Whether the invoice charges a saved card (rather than saving one: that link is made once the payment succeeded). */
function chargesSavedCard(invoice: InvoiceRow): boolean {
  return invoice.paymentMethodId !== null && invoice.status !== "processed" && invoice.status !== "partially_processed";
}

async function providerOfConnection(db: Db, invoice: InvoiceRow): Promise<string> {
  const connection = invoice.connectionId ? await findConnectionRow(db, invoice.merchantId, invoice.connectionId) : undefined;
  // No connection to name the provider: nothing else may be tried.
  return connection?.provider ?? "";
}

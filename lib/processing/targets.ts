import "server-only";
import type { Db } from "@/lib/db/client";
import type { RoutingReason } from "@/lib/db/enums";
import type { InvoiceRow } from "@/lib/invoices/create/store";
import { listRouteCandidates } from "@/lib/routing/candidates";

export type AttemptTarget = { connectionId: string; reason: RoutingReason };

/**
 * Where the attempts of one payment request go, in order. A pinned invoice goes to its connection
 * only (no cascade). Otherwise the invoice's current connection first, then the rest of the
 * merchant's routing order for the service and mode after it: a soft failure moves down the list.
 * The routed connection is tried even if it was disabled since, because the invoice was promised to it.
 */
export async function listAttemptTargets(db: Db, invoice: InvoiceRow): Promise<AttemptTarget[]> {
  const routed = invoice.connectionId;
  if (!routed) return [];
  const firstReason: RoutingReason = invoice.routingReason ?? "routing_order";
  if (firstReason === "pinned") return [{ connectionId: routed, reason: "pinned" }];
  const mode = invoice.testMode ? "test" : "live";
  const ids = (await listRouteCandidates(db, invoice.merchantId, { service: invoice.service, mode })).map((candidate) => candidate.connectionId);
  const start = ids.indexOf(routed);
  const after = start >= 0 ? ids.slice(start + 1) : ids.filter((id) => id !== routed);
  return [{ connectionId: routed, reason: firstReason }, ...after.map((connectionId) => ({ connectionId, reason: "cascaded" as const }))];
}

import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import type { InvoiceRow } from "@/lib/invoices/store";
import type { CardFacts } from "@/lib/cards/bin";
import { loadRouteSetup } from "@/lib/routing/candidates";
import { decideRoute } from "@/lib/routing/decide";
import { toStoredDetail } from "@/lib/routing/detail";
import { successSnapshotFor } from "@/lib/routing/success-stats";
import { capabilityAsksOf } from "@/lib/providers/capabilities";

/**
 * Card conditions of routing rules apply once the card is known: at the hosted page's Pay, an invoice
 * whose routing passed over a rule on the card (or that was routed at an earlier Pay, since the
 * customer may use another card) is routed again by the same decision, with the card's brand and
 * issuing country. A split keeps the draw it had at creation, and so does exploration. The invoice is already taken
 * (`processing`), so nobody else writes it meanwhile. Pinned invoices are never routed again.
 */
export async function routeAgainAtPay(db: Db, invoice: InvoiceRow, card: CardFacts | null): Promise<InvoiceRow> {
  const detail = invoice.routingDetail;
  if (invoice.routingReason === "pinned" || !detail) return invoice;
  if (detail.waiting_for_card.length === 0 && detail.decided_at !== "pay") return invoice;
  const setup = await loadRouteSetup(db, invoice.merchantId, { service: invoice.service, mode: invoice.testMode ? "test" : "live" });
  const draw = detail.branch?.draw;
  // A success-rate ordering reads the counts as they are now, with the exploration draw creation had.
  const explore = detail.success?.draw;
  const success = await successSnapshotFor(db, invoice.merchantId, invoice.service, setup, explore === undefined ? Math.random : () => explore / 100);
  const decision = decideRoute(
    setup.table,
    { amountMinor: invoice.amountMinor, customerCountry: detail.customer_country, card, asks: capabilityAsksOf(invoice) },
    draw === undefined ? Math.random : () => draw / 100,
    success,
  );
  const first = decision.connectionIds[0];
  if (first === undefined) return invoice;
  const previous = invoice.connectionId;
  const routingDetail = toStoredDetail(decision, {
    decidedAt: "pay",
    version: setup.version,
    customerCountry: detail.customer_country,
    changedFrom: previous !== first ? previous : null,
  });
  const [row] = await db
    .update(invoices)
    .set({ connectionId: first, routingReason: "routing_order", routingDetail })
    .where(eq(invoices.id, invoice.id))
    .returning();
  return row ?? invoice;
}

import { routingAttributeOf } from "@/lib/routing/detail";
import type { Db } from "@/lib/db/client";
import { formatMinor } from "@/lib/money";
import { isAtRest, isFinal } from "../state-machine";
import { getStatusHistory } from "../status";
import { listCustomerFields } from "./customer-fields";
import type { InvoiceListFilter } from "./filters";
import { directionOfId, getInvoice } from "./get-invoice";
import { hostedPagePath } from "./hosted-page";
import { requestAsSent, toListItem, type DashboardInvoice, type DashboardInvoicePage } from "./invoice-view";
import { listInvoices } from "./list-invoices";
import { readPayingCard } from "./paying-card";
import { customerReferenceOf } from "../contract/saved-cards";

/** The list page: the same query as the API's list, across both directions, as plain JSON. */
export async function listDashboardInvoices(db: Db, merchantId: string, filter: InvoiceListFilter): Promise<DashboardInvoicePage> {
  const readAt = Date.now();
  const page = await listInvoices(db, merchantId, filter);
  return { invoices: page.invoices.map(toListItem), nextCursor: page.nextCursor, readAt };
}

/** One of the merchant's invoices of either direction (by id prefix), or undefined (also for another merchant's). */
export async function getDashboardInvoice(db: Db, merchantId: string, id: string): Promise<DashboardInvoice | undefined> {
  const readAt = Date.now();
  const direction = directionOfId(id);
  const row = direction && (await getInvoice(db, merchantId, direction, id));
  if (!row) return undefined;
  const [history, payingCard] = await Promise.all([getStatusHistory(db, row.id), readPayingCard(db, row)]);
  return {
    ...toListItem(row),
    flow: row.flow,
    updatedAt: row.updatedAt.toISOString(),
    requestId: row.requestId,
    cardNumberMasked: row.cardNumberMasked,
    payingCard,
    customerReference: customerReferenceOf(row.customer) ?? null,
    // A payout is canceled only while it is unsent or the provider is still paying it
    // (lib/processing/cancel-payout.ts), so one at rest (processed, canceled …) will not change.
    final: isFinal(row.status) || (row.direction === "payout" && isAtRest(row.status)),
    atRest: isAtRest(row.status),
    hostedPagePath: hostedPagePath(row),
    routing: routingAttributeOf(row.routingReason, row.routingDetail, row.connection?.label),
    processedAmount: row.processedAmountMinor === null ? null : formatMinor(row.processedAmountMinor, row.currency),
    attemptsCount: row.attemptsCount,
    returnUrl: row.returnUrl,
    description: row.description,
    request: requestAsSent(row),
    customer: listCustomerFields(row.resolvedCustomer, row.resolvedCustomerSources),
    history: history.map((entry) => ({
      id: entry.id,
      from: entry.fromStatus,
      to: entry.toStatus,
      resolution: entry.resolution,
      reason: entry.reason,
      at: entry.at.toISOString(),
    })),
    readAt,
  };
}

import type { RoutingReason } from "@/lib/db/enums";
import type { RoutingAttribute } from "@/lib/routing/detail";
import { routingReasonText } from "@/lib/routing/reason";
import { getKind, getProvider, type InvoiceDirection, type Mode } from "@/lib/providers";
import { INVOICE_TYPES } from "../contract/resource-types";
import type { InvoiceRow } from "../store";
import type { InvoiceStatus, Resolution } from "../state-machine";
import type { DashboardCustomerField } from "./customer-fields";
import type { RoutedConnection } from "./invoice-select";
import type { PayingCard } from "./paying-card";

/**
 * The dashboard's view of invoices. Everything is plain JSON (dates as ISO strings) because it goes
 * to client components and the session routes as is. Never credentials: of the connection only its
 * label, provider, kind and mode.
 */

export type { DashboardCustomerField } from "./customer-fields";

export type DashboardConnection = {
  id: string;
  label: string;
  provider: string;
  providerName: string;
  kind: string;
  kindLabel: string;
  mode: Mode;
  deleted: boolean;
};

export type DashboardInvoiceListItem = {
  id: string;
  direction: InvoiceDirection;
  referenceId: string;
  status: InvoiceStatus;
  resolution: Resolution | null;
  amount: string;
  currency: string;
  service: string;
  testMode: boolean;
  createdAt: string;
  connection: DashboardConnection | null;
  /** Why the invoice went to `connection`; null while it has none. */
  routingReason: RoutingReason | null;
  /** The same in the dashboard's words (routingReasonText), naming the rule that decided it. */
  routingReasonText: string | null;
};

export type DashboardInvoicePage = {
  invoices: DashboardInvoiceListItem[];
  nextCursor: string | null;
  /** When the server read the page (ms since epoch): client caches date their copy by it. */
  readAt: number;
};

export type DashboardHistoryEntry = {
  id: number;
  from: InvoiceStatus | null;
  to: InvoiceStatus;
  resolution: Resolution | null;
  reason: string;
  at: string;
};

export type DashboardInvoice = DashboardInvoiceListItem & {
  flow: string | null;
  updatedAt: string;
  requestId: string | null;
  cardNumberMasked: string | null;
  /** The customer's reference_id as sent (the Customers page's key); null when none. */
  customerReference: string | null;
  /** The card a payment was paid with (brand, last four, country, 3-D Secure); null for payouts and unpaid payments. */
  payingCard: PayingCard | null;
  /** No move can follow (isFinal). */
  final: boolean;
  /** Nothing changes it on its own (isAtRest: final, or only a refund or cancel asked for would): the detail page stops polling. */
  atRest: boolean;
  /** `/pay/{id}` for `_hpp` services, relative to the app's origin; null otherwise. */
  hostedPagePath: string | null;
  /** How routing decided (the API's `routing` attribute): the rule, the split's branch, the order and the sentence. */
  routing: RoutingAttribute | null;
  /** What the provider collected or paid out (decimal text); null until a provider says. */
  processedAmount: string | null;
  attemptsCount: number;
  returnUrl: string | null;
  description: string | null;
  request: Record<string, unknown>;
  customer: DashboardCustomerField[];
  history: DashboardHistoryEntry[];
  /** When the server read the invoice (ms since epoch). */
  readAt: number;
};

export function toDashboardConnection(connection: RoutedConnection | null): DashboardConnection | null {
  if (!connection) return null;
  return {
    id: connection.id,
    label: connection.label,
    provider: connection.provider,
    providerName: getProvider(connection.provider)?.name ?? connection.provider,
    kind: connection.kind,
    kindLabel: getKind(connection.provider, connection.kind)?.label ?? connection.kind,
    mode: connection.mode,
    deleted: connection.deletedAt !== null,
  };
}

/** The fields the list and the detail page both show. */
export function toListItem(row: InvoiceRow & { connection: RoutedConnection | null }): DashboardInvoiceListItem {
  return {
    id: row.id,
    direction: row.direction,
    referenceId: row.referenceId,
    status: row.status,
    resolution: row.resolution,
    amount: row.amount,
    currency: row.currency,
    service: row.service,
    testMode: row.testMode,
    createdAt: row.createdAt.toISOString(),
    connection: toDashboardConnection(row.connection),
    routingReason: row.routingReason,
    routingReasonText: row.routingReason ? routingReasonText(row.routingReason, row.routingDetail?.rule) : null,
  };
}

/**
 * The request body rebuilt from the stored columns: the invoice keeps every attribute as sent,
 * except that the card number is only kept masked, commerce_account is not stored (it had to be
 * the merchant's own), and the customer shows under attributes whichever of its three allowed
 * places it came in.
 */
export function requestAsSent(row: InvoiceRow): Record<string, unknown> {
  const attributes: Record<string, unknown> = {
    service: row.service,
    currency: row.currency,
    amount: row.amountIsNumber ? Number(row.amount) : row.amount,
    reference_id: row.referenceId,
    test_mode: row.testMode,
  };
  if (row.flow !== null) attributes.flow = row.flow;
  if (row.cardNumberMasked !== null) attributes.fields = { card_number: row.cardNumberMasked };
  if (Object.keys(row.options).length > 0) attributes.options = row.options;
  if (row.customer !== null) attributes.customer = row.customer;
  if (row.gatewayOptions !== null) attributes.gateway_options = row.gatewayOptions;
  if (row.serviceFields !== null) attributes.service_fields = row.serviceFields;
  if (row.description !== null) attributes.description = row.description;
  const data: Record<string, unknown> = { type: INVOICE_TYPES[row.direction], attributes };
  // A pin is only ever stored as its outcome: the connection, routed because pinned.
  if (row.routingReason === "pinned" && row.connectionId !== null) {
    data.relationships = { connection: { data: { type: "connection", id: row.connectionId } } };
  }
  return { data };
}

import { publicBaseUrl } from "@/lib/config";
import type { InvoiceDirection } from "@/lib/providers";
import type { InvoiceResource } from "../invoices/contract/resource-schemas";
import type { Customer } from "../invoices/contract/schemas";
import { INVOICE_TYPES } from "../invoices/contract/resource-types";
import type { InvoiceRow } from "@/lib/invoices/store";
import { formatMinor } from "@/lib/money";
import { hostedPagePath } from "../invoices/read/hosted-page";
import { routingAttributeOf } from "@/lib/routing/detail";

export type ResourceContext = {
  /** Origin of this app as the client reaches it, e.g. https://pay.example.com (no trailing slash). */
  baseUrl: string;
};

export function invoiceCollectionPath(direction: InvoiceDirection): string {
  return `/api/commerce/${direction}-invoices`;
}

/**
 * hpp_url: the hosted page on this server's public address (APP_URL), never the origin the API
 * client happened to use (a loopback address or an internal host a customer cannot open).
 */
function hostedPageUrl(row: Pick<InvoiceRow, "id" | "service">): string | null {
  const path = hostedPagePath(row);
  return path === null ? null : `${publicBaseUrl()}${path}`;
}

/** In the form amount was sent: a number for a number, else the currency's decimal text. */
function processedAmountOf(row: Pick<InvoiceRow, "processedAmountMinor" | "currency" | "amountIsNumber">): string | number | null {
  if (row.processedAmountMinor === null) return null;
  const text = formatMinor(row.processedAmountMinor, row.currency);
  return row.amountIsNumber ? Number(text) : text;
}

/** Payments only: what its refunds gave back, in the form amount was sent. */
function refundedAmountOf(row: Pick<InvoiceRow, "refundedAmountMinor" | "currency" | "amountIsNumber">): string | number {
  const text = formatMinor(row.refundedAmountMinor, row.currency);
  return row.amountIsNumber ? Number(text) : text;
}

/** Payments only: what its disputes hold back, in the form amount was sent (events written before disputes hold none). */
function disputedAmountOf(row: Pick<InvoiceRow, "disputedAmountMinor" | "currency" | "amountIsNumber">): string | number {
  const text = formatMinor(row.disputedAmountMinor ?? 0n, row.currency);
  return row.amountIsNumber ? Number(text) : text;
}

/** Payments of flow "authorize" only: what was reserved, in the form amount was sent, and until when it may be captured. */
function authorizationAttributesOf(row: InvoiceRow): { authorized_amount: string | number | null; capture_before: string | null } {
  const text = row.authorizedAmountMinor === null ? null : formatMinor(row.authorizedAmountMinor, row.currency);
  return {
    authorized_amount: text === null ? null : row.amountIsNumber ? Number(text) : text,
    capture_before: row.captureBefore ? row.captureBefore.toISOString() : null,
  };
}

/**
 * The JSON:API invoice (REFERENCE "Resources"). `amount` comes back as it was sent, a string as
 * the same string and a number as the same number; the card number only as its mask.
 */
export function toInvoiceResource(row: InvoiceRow, context: ResourceContext): InvoiceResource {
  const self = `${context.baseUrl}${invoiceCollectionPath(row.direction)}/${row.id}`;
  return {
    id: row.id,
    type: INVOICE_TYPES[row.direction],
    attributes: {
      status: row.status,
      resolution: row.resolution,
      amount: row.amountIsNumber ? Number(row.amount) : row.amount,
      currency: row.currency,
      service: row.service,
      reference_id: row.referenceId,
      test_mode: row.testMode,
      flow: row.flow === "charge" || row.flow === "authorize" ? row.flow : null,
      options: row.options,
      ...(row.cardNumberMasked === null ? {} : { fields: { card_number: row.cardNumberMasked } }),
      customer: row.customer as Customer | null,
      resolved_customer: row.resolvedCustomer,
      resolved_customer_sources: row.resolvedCustomerSources,
      hpp_url: hostedPageUrl(row),
      routing: routingAttributeOf(row.routingReason, row.routingDetail),
      processed_amount: processedAmountOf(row),
      ...(row.direction === "payment" ? { refunded_amount: refundedAmountOf(row), disputed_amount: disputedAmountOf(row) } : {}),
      ...(row.flow === "authorize" ? authorizationAttributesOf(row) : {}),
      attempts: row.attemptsCount,
      ...(row.direction === "payment" ? { description: row.description } : {}),
      return_url: row.returnUrl,
      lifetime: Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 1000),
      expires_at: row.expiresAt.toISOString(),
      created: row.createdAt.toISOString(),
      updated: row.updatedAt.toISOString(),
    },
    // JSON:API lets a resource's links hold only `self`: the attempts are a to-many relationship,
    // found at its `related` link (no linkage: reading them is a request of its own).
    relationships: {
      connection: { data: row.connectionId === null ? null : { type: "connection", id: row.connectionId } },
      attempts: { links: { related: `${self}/attempts` } },
      ...(row.direction === "payment"
        ? {
            refunds: { links: { related: `${self}/refunds` } },
            disputes: { links: { related: `${context.baseUrl}/api/commerce/disputes?${encodeURI("filter[invoice]")}=${row.id}` } },
          }
        : {}),
      ...(row.paymentMethodId
        ? {
            payment_method: {
              data: { type: "payment-methods" as const, id: row.paymentMethodId },
              links: { related: `${context.baseUrl}/api/commerce/payment-methods/${row.paymentMethodId}` },
            },
          }
        : {}),
    },
    links: { self },
  };
}

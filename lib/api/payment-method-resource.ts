import type { PaymentMethodView } from "@/lib/payment-methods/store";

/**
 * The JSON:API payment method: a saved card as shown, never its token nor its number.
 * `usable` is false once detached or when the connection holding the token was deleted.
 */
export const PAYMENT_METHODS_PATH = "/api/commerce/payment-methods";

export function toPaymentMethodResource(view: Omit<PaymentMethodView, "merchantId">, baseUrl: string) {
  const self = `${baseUrl}${PAYMENT_METHODS_PATH}/${view.id}`;
  return {
    id: view.id,
    type: "payment-methods" as const,
    attributes: {
      customer_reference: view.customerReference,
      card: {
        brand: view.brand,
        last_four: view.lastFour,
        expiry_month: view.expiryMonth,
        expiry_year: view.expiryYear,
      },
      provider: view.provider,
      test_mode: view.testMode,
      usable: view.detachedAt === null && !view.connectionDeleted,
      detached_at: view.detachedAt ? new Date(view.detachedAt).toISOString() : null,
      created: new Date(view.createdAt).toISOString(),
      updated: new Date(view.updatedAt).toISOString(),
    },
    relationships: {
      connection: { data: { type: "connection" as const, id: view.connectionId } },
      source_invoice: {
        data: { type: "payment-invoices" as const, id: view.sourceInvoiceId },
        links: { related: `${baseUrl}/api/commerce/payment-invoices/${view.sourceInvoiceId}` },
      },
    },
    links: { self },
  };
}

/** A payment method back from an event's snapshot (dates as ISO text). */
export function paymentMethodFromSnapshot(snapshot: Record<string, unknown>): Omit<PaymentMethodView, "merchantId"> {
  const date = (value: unknown) => (typeof value === "string" ? new Date(value) : null);
  return {
    ...(snapshot as Omit<PaymentMethodView, "merchantId">),
    detachedAt: date(snapshot.detachedAt),
    createdAt: date(snapshot.createdAt) ?? new Date(0),
    updatedAt: date(snapshot.updatedAt) ?? new Date(0),
    connectionDeleted: snapshot.connectionDeleted === true,
  };
}

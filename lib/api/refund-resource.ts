import type { z } from "zod";
import type { refundResourceSchema } from "@/lib/invoices/contract/resource-schemas";
import type { RefundRow } from "@/lib/refunds/store";
import { invoiceCollectionPath } from "./invoice-resource";

export type RefundResource = z.infer<typeof refundResourceSchema>;

const refundPath = (id: string) => `/api/commerce/refunds/${id}`;
export const invoiceRefundsPath = (invoiceId: string) => `${invoiceCollectionPath("payment")}/${invoiceId}/refunds`;

const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/** The JSON:API refund (lib/invoices/contract/resource-schemas.ts); the provider exchange log stays on the invoice page. */
export function toRefundResource(row: RefundRow, baseUrl: string): RefundResource {
  return {
    id: row.id,
    type: "refund",
    attributes: {
      status: row.status,
      resolution: row.resolution,
      amount: row.amount,
      currency: row.currency,
      reference_id: row.referenceId,
      reason: row.reason,
      test_mode: row.testMode,
      provider_reference: row.providerReference,
      message: row.message,
      created: iso(row.createdAt),
      updated: iso(row.updatedAt),
      settled: row.settledAt === null ? null : iso(row.settledAt),
    },
    relationships: {
      invoice: { data: { type: "payment-invoice", id: row.invoiceId } },
      connection: { data: { type: "connection", id: row.connectionId } },
    },
    links: { self: `${baseUrl}${refundPath(row.id)}` },
  };
}

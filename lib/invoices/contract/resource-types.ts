/** The JSON:API resource type of each direction's invoice. Free of zod: the composer builds bodies with it before it loads a schema. */
export const INVOICE_TYPES = { payment: "payment-invoice", payout: "payout-invoice" } as const;

/**
 * How long a new invoice stays payable when its request sends no `lifetime`, in whole
 * minutes (stored in seconds). 1 minute to 30 days: the default applies to every invoice, also ones
 * sent by email, so seconds-short links are for the per-invoice `lifetime` attribute only; the
 * upper bound is the attribute's (30 days). Free of zod: the settings form shows them before it
 * loads its schema.
 */
export const INVOICE_LIFETIME_MINUTES_MIN = 1;
export const INVOICE_LIFETIME_MINUTES_MAX = 30 * 24 * 60;

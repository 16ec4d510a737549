import { z } from "zod";

/** The merchant's own switches, as the Settings page edits them (isomorphic: the form imports it). */
export const merchantSettingsSchema = z.object({
  /** Whether a live invoice may name its connection; test invoices always may. */
  allowLivePins: z.boolean({ error: "Choose on or off" }),
});

export type MerchantSettings = z.output<typeof merchantSettingsSchema>;

/**
 * How long a new invoice stays payable when its request sends no `lifetime`, in whole
 * minutes (stored in seconds). 1 minute to 30 days: the default applies to every invoice, also ones
 * sent by email, so seconds-short links are for the per-invoice `lifetime` attribute only; the
 * upper bound is the attribute's (30 days).
 */
export const INVOICE_LIFETIME_MINUTES_MIN = 1;
export const INVOICE_LIFETIME_MINUTES_MAX = 30 * 24 * 60;

export const invoiceLifetimeSchema = z.object({
  lifetimeMinutes: z.coerce
    .number({ error: "Enter the lifetime in minutes" })
    .int({ error: "Enter a whole number of minutes" })
    .min(INVOICE_LIFETIME_MINUTES_MIN, { error: `The lifetime must be at least ${INVOICE_LIFETIME_MINUTES_MIN} minute` })
    .max(INVOICE_LIFETIME_MINUTES_MAX, { error: `The lifetime must be at most ${INVOICE_LIFETIME_MINUTES_MAX} minutes (30 days)` }),
});

export type InvoiceLifetimeInput = z.input<typeof invoiceLifetimeSchema>;
export type InvoiceLifetime = z.output<typeof invoiceLifetimeSchema>;

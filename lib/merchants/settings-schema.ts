import { z } from "zod";
import { isTimeZone } from "@/lib/time-zones";
import { INVOICE_LIFETIME_MINUTES_MAX, INVOICE_LIFETIME_MINUTES_MIN } from "./lifetime-bounds";

/** The merchant's own switches, as the Settings page edits them (isomorphic: the form imports it). */
export const merchantSettingsSchema = z.object({
  /** Whether a live invoice may name its connection; test invoices always may. */
  allowLivePins: z.boolean({ error: "Choose on or off" }),
});

export type MerchantSettings = z.output<typeof merchantSettingsSchema>;

/** The default lifetime of a new invoice, in whole minutes (bounds: ./lifetime-bounds). */
export const invoiceLifetimeSchema = z.object({
  lifetimeMinutes: z.coerce
    .number({ error: "Enter the lifetime in minutes" })
    .int({ error: "Enter a whole number of minutes" })
    .min(INVOICE_LIFETIME_MINUTES_MIN, { error: `The lifetime must be at least ${INVOICE_LIFETIME_MINUTES_MIN} minute` })
    .max(INVOICE_LIFETIME_MINUTES_MAX, { error: `The lifetime must be at most ${INVOICE_LIFETIME_MINUTES_MAX} minutes (30 days)` }),
});

export type InvoiceLifetime = z.output<typeof invoiceLifetimeSchema>;

/** The merchant's time zone, by its IANA name as the Settings list offers it. */
export const merchantTimeZoneSchema = z.object({
  timeZone: z.string({ error: "Choose a time zone" }).trim().refine(isTimeZone, { error: "Choose a time zone from the list, e.g. Europe/Berlin" }),
});

export type MerchantTimeZone = z.output<typeof merchantTimeZoneSchema>;

/** A person's own time zone; empty: the merchant's (stored as null). */
export const personTimeZoneSchema = z.object({
  timeZone: z
    .string({ error: "Choose a time zone" })
    .trim()
    .refine((name) => name === "" || isTimeZone(name), { error: "Choose a time zone from the list, e.g. Europe/Berlin, or leave it empty for the merchant's" }),
});

export type PersonTimeZone = z.output<typeof personTimeZoneSchema>;

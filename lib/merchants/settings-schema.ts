import { z } from "zod";

/** The merchant's own switches, as the Settings page edits them (isomorphic: the form imports it). */
export const merchantSettingsSchema = z.object({
  /** Issue 10: whether a live invoice may name its connection; test invoices always may. */
  allowLivePins: z.boolean({ error: "Choose on or off" }),
});

export type MerchantSettings = z.output<typeof merchantSettingsSchema>;

import { z } from "zod";
import { blocklistEntrySchema } from "./blocklist";

/**
 * The Risk page's and the invoice page's forms: one schema each for form and action. Plain data,
 * safe for client components.
 */
const mode = z.enum(["test", "live"], { error: "Choose test or live" });

export const addBlocklistFormSchema = z.intersection(blocklistEntrySchema, z.object({ mode }));

export const removeBlocklistFormSchema = z.strictObject({ id: z.string().min(1, "Which entry?").max(100), mode });

export const blockInvoiceCardSchema = z.strictObject({ invoiceId: z.string().min(1, "Which invoice?").max(100) });

/** The simulator: what the rules would do with a card BIN, a client address and a customer e-mail (any may be left out). */
export const riskSimulationSchema = z.strictObject({
  mode,
  bin: z
    .string()
    .trim()
    .regex(/^(\d{6,8})?$/, "A BIN is the card number's first 6 to 8 digits")
    .default(""),
  address: z.string().trim().max(64, "At most 64 characters").default(""),
  email: z.string().trim().max(254, "At most 254 characters").default(""),
});
export type RiskSimulationInput = z.output<typeof riskSimulationSchema>;

export type RiskSimulation = {
  /** The rule a Pay with these facts would meet now, or null: it would reach the provider. */
  rule: string | null;
  sentence: string;
  /** Each velocity limit on these keys: how many count now, out of how many. */
  counters: { rule: string; label: string; count: number; limit: number }[];
};

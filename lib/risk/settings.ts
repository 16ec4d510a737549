import { z } from "zod";

/**
 * The velocity limits at Pay (lib/risk/velocity.ts), as an owner tunes them on the Risk page.
 * Plain data, safe for client components. The defaults stop card testing (many cards, or many
 * declines, from one address, one e-mail, one card or on one invoice) and never a real customer's
 * second or third try with the same card: they sit well above "one card, two declines, then
 * success" (property-tested in velocity.test.ts).
 */
export const VELOCITY_RULES = {
  address_declines: { label: "Declines from one client address", limitKey: "addressDeclines", windowKey: "addressWindowMinutes" },
  address_cards: { label: "Different cards from one client address", limitKey: "addressCards", windowKey: "addressWindowMinutes" },
  card_declines: { label: "Declines of one card", limitKey: "cardDeclines", windowKey: "cardWindowMinutes" },
  email_declines: { label: "Declines for one customer e-mail", limitKey: "emailDeclines", windowKey: "emailWindowMinutes" },
  invoice_cards: { label: "Different cards on one invoice", limitKey: "invoiceCards", windowKey: null },
} as const;
export type VelocityRule = keyof typeof VELOCITY_RULES;

/** The blocklist's rules: one per kind of entry. */
const BLOCKLIST_RULES = {
  blocklist_card: "Card on the blocklist",
  blocklist_bin: "Card BIN on the blocklist",
  blocklist_email: "Customer e-mail on the blocklist",
  blocklist_address: "Client address on the blocklist",
  blocklist_country: "Customer country on the blocklist",
} as const;
export type BlocklistRule = keyof typeof BLOCKLIST_RULES;
export type RiskRule = VelocityRule | BlocklistRule;

export function describeRiskRule(rule: string): string {
  return (VELOCITY_RULES as Record<string, { label: string }>)[rule]?.label ?? (BLOCKLIST_RULES as Record<string, string>)[rule] ?? rule;
}

const count = (max: number) =>
  z
    .number({ error: `A whole number from 1 to ${max}` })
    .int(`A whole number from 1 to ${max}`)
    .min(1, `At least 1`)
    .max(max, `At most ${max}`);
// A day at most: Pay reads the day's attempts (the database's risk_history, migration 0038).
const minutes = z.number({ error: "Minutes from 1 to 1440" }).int("Whole minutes").min(1, "At least 1 minute").max(1440, "At most 1440 minutes (a day)");

export const riskSettingsSchema = z.strictObject({
  addressDeclines: count(1000),
  addressCards: count(1000),
  addressWindowMinutes: minutes,
  cardDeclines: count(1000),
  cardWindowMinutes: minutes,
  emailDeclines: count(1000),
  emailWindowMinutes: minutes,
  invoiceCards: count(100),
});
export type RiskSettings = z.infer<typeof riskSettingsSchema>;

/** The defaults: e.g. 5 declines per address in 10 minutes, 3 different cards on one invoice. */
export const DEFAULT_RISK_SETTINGS: RiskSettings = {
  addressDeclines: 5,
  addressCards: 4,
  addressWindowMinutes: 10,
  cardDeclines: 5,
  cardWindowMinutes: 60,
  emailDeclines: 8,
  emailWindowMinutes: 60,
  invoiceCards: 3,
};

/** The page's words: what a refused customer is told (never which rule, which would teach a tester). */
export const RISK_REFUSAL = "This payment could not be completed; try again later.";

import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { cardBrandLabel, cardBrandOf } from "@/lib/cards/bin";
import { addressHash, cardFingerprint, emailHash } from "./fingerprint";
import { matchBlocklist, RULE_OF_KIND, type BlocklistEntry, type RiskFacts } from "./blocklist";
import { longestWindowMs, type RiskRule } from "./settings";
import { blocklistValues, cachedBlocklistValues, getRiskSettings, insertRiskAttempt, recentAttempts, type Mode } from "./store";
import { velocityVerdict } from "./velocity";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** What the check knows of one Pay: the card in memory only, the client's address, the invoice's customer. */
export type PayRiskInput = {
  merchantId: string;
  mode: Mode;
  invoiceId: string;
  amount: string;
  currency: string;
  cardNumber: string;
  address: string | null;
  email: string | null;
  country: string | null;
  /** A sandbox's published test card in test mode: the blocklist applies, the velocity limits neither count nor refuse it. */
  velocityExempt?: boolean;
};

export type PayRiskDecision = { kind: "pass"; riskAttemptId: string } | { kind: "blocked"; rule: RiskRule; riskAttemptId: string; cardLabel: string };

/** "Visa •••• 4242": how the card is shown where it is named (timeline, blocklist). */
function cardLabelOf(cardNumber: string): string {
  const digits = cardNumber.replace(/\D/g, "");
  return `${cardBrandLabel(cardBrandOf(digits)) ?? "Card"} •••• ${digits.slice(-4)}`;
}

/**
 * The check at Pay, in the caller's transaction: one lock per merchant and mode (a transaction
 * advisory lock, so Pays of one merchant on every instance of one PostgreSQL take turns for the
 * few reads here), then the blocklist, then the velocity limits over the recent attempts, and the
 * attempt is recorded (open, or blocked with its rule) before the lock is let go: 100 simultaneous
 * Pays are counted one after another and cannot all pass.
 */
export async function checkPay(tx: Tx, input: PayRiskInput): Promise<PayRiskDecision> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`risk:${input.merchantId}:${input.mode}`}, 0))`);
  const digits = input.cardNumber.replace(/\D/g, "");
  const keys = {
    cardFingerprint: digits.length > 0 ? cardFingerprint(digits) : null,
    addressHash: input.address ? addressHash(input.address) : null,
    emailHash: input.email ? emailHash(input.email) : null,
  };
  const facts: RiskFacts = { cardFingerprint: keys.cardFingerprint, cardDigits: digits, email: input.email, address: input.address, country: input.country };
  const [settings, entries] = await Promise.all([getRiskSettings(tx, input.merchantId), blocklistValues(tx, input.merchantId, input.mode)]);
  const listed = matchBlocklist(entries, facts);
  let rule: RiskRule | null = listed ? RULE_OF_KIND[listed.kind] : null;
  if (!rule && !input.velocityExempt) {
    const { now, history } = await recentAttempts(
      tx,
      { merchantId: input.merchantId, testMode: input.mode === "test", invoiceId: input.invoiceId, windowMs: longestWindowMs(settings) },
      keys,
    );
    rule = velocityVerdict(settings, history, { invoiceId: input.invoiceId, ...keys }, now);
  }
  const cardLabel = digits.length > 0 ? cardLabelOf(digits) : "card";
  const riskAttemptId = await insertRiskAttempt(tx, {
    merchantId: input.merchantId,
    testMode: input.mode === "test",
    invoiceId: input.invoiceId,
    ...keys,
    cardLabel,
    cardBin: digits.slice(0, 6) || null,
    outcome: rule ? "blocked" : input.velocityExempt ? "exempt" : "open",
    rule,
    amount: input.amount,
    currency: input.currency,
  });
  return rule ? { kind: "blocked", rule, riskAttemptId, cardLabel } : { kind: "pass", riskAttemptId };
}

/** The blocklist's answer for what a create knows (customer e-mail and country, a payout's card): the matching kind, or null. */
export async function checkCreate(
  db: Db,
  scope: { merchantId: string; mode: Mode },
  facts: { email?: string | null; country?: string | null; cardNumber?: string | null },
): Promise<BlocklistEntry["kind"] | null> {
  const entries = await cachedBlocklistValues(db, scope.merchantId, scope.mode);
  if (entries.length === 0) return null;
  const digits = facts.cardNumber?.replace(/\D/g, "") ?? "";
  // A masked number ("4111 11•• •••• 1111") still gives its BIN, never a fingerprint.
  const full = /^\d{12,19}$/.test(digits) && !/[^\d\s-]/.test(facts.cardNumber ?? "");
  const listed = matchBlocklist(entries, {
    email: facts.email,
    country: facts.country,
    cardDigits: digits.length >= 6 ? digits : null,
    cardFingerprint: full ? cardFingerprint(digits) : null,
  });
  return listed ? listed.kind : null;
}

import "server-only";
import type { Db } from "@/lib/db/client";
import { cardBrandLabel, cardBrandOf } from "@/lib/cards/bin";
import { addressHash, cardFingerprint, emailHash } from "./fingerprint";
import { compileBlocklist, RULE_OF_KIND, type BlocklistEntry, type BlocklistMatcher, type RiskFacts } from "./blocklist";
import type { RiskRule, RiskSettings } from "./settings";
import { blocklistValues, cachedBlocklist, getRiskSettings, recordPayAttempt, type Mode } from "./store";
import { velocityVerdict } from "./velocity";

type Reader = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

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

type Rules = { version: number; settings: RiskSettings; blocklist: BlocklistMatcher };

/** The rules each merchant's mode was last read with, kept while its version stands (at most RULES_KEPT modes). */
const RULES_KEPT = 1_000;
const kept = globalThis as unknown as { __riskRules?: Map<string, Rules> };

/** The merchant's limits and blocklist of the mode at `version`: as kept, or read again when the version has moved. */
async function rulesAt(db: Reader, merchantId: string, mode: Mode, version: number): Promise<Rules> {
  const cache = (kept.__riskRules ??= new Map());
  const key = `${merchantId}:${mode}`;
  const hit = cache.get(key);
  if (hit && hit.version === version) return hit;
  const [settings, entries] = await Promise.all([getRiskSettings(db, merchantId), blocklistValues(db, merchantId, mode)]);
  if (cache.size >= RULES_KEPT) cache.clear();
  const rules = { version, settings, blocklist: compileBlocklist(entries) };
  cache.set(key, rules);
  return rules;
}

/**
 * The check at Pay, one statement while the merchant's rules stand (`recordPayAttempt`): under the
 * merchant's lock for the mode it reads the rules version and the day's attempts sharing a key with
 * this one and records this one as open, so 100 simultaneous Pays are counted one after another
 * and cannot all pass. Then the blocklist and the velocity limits decide on what was read; a
 * refusal is the caller's to record (`blockRiskAttempt`): until then the attempt counts as open,
 * that is against the next Pays, never for them.
 */
export async function checkPay(db: Reader, input: PayRiskInput): Promise<PayRiskDecision> {
  const digits = input.cardNumber.replace(/\D/g, "");
  const keys = {
    cardFingerprint: digits.length > 0 ? cardFingerprint(digits) : null,
    addressHash: input.address ? addressHash(input.address) : null,
    emailHash: input.email ? emailHash(input.email) : null,
  };
  const cardLabel = digits.length > 0 ? cardLabelOf(digits) : "card";
  const attempt = await recordPayAttempt(db, {
    merchantId: input.merchantId,
    testMode: input.mode === "test",
    invoiceId: input.invoiceId,
    ...keys,
    cardLabel,
    cardBin: digits.slice(0, 6) || null,
    outcome: input.velocityExempt ? "exempt" : "open",
    amount: input.amount,
    currency: input.currency,
  });
  const { settings, blocklist } = await rulesAt(db, input.merchantId, input.mode, attempt.version);
  const facts: RiskFacts = { cardFingerprint: keys.cardFingerprint, cardDigits: digits, email: input.email, address: input.address, country: input.country };
  const listed = blocklist(facts);
  const rule: RiskRule | null = listed
    ? RULE_OF_KIND[listed.kind]
    : input.velocityExempt
      ? null
      : velocityVerdict(settings, attempt.history, { invoiceId: input.invoiceId, ...keys }, attempt.now);
  return rule ? { kind: "blocked", rule, riskAttemptId: attempt.id, cardLabel } : { kind: "pass", riskAttemptId: attempt.id };
}

/** The blocklist's answer for what a create knows (customer e-mail and country, a payout's card): the matching kind, or null. */
export async function checkCreate(
  db: Db,
  scope: { merchantId: string; mode: Mode },
  facts: { email?: string | null; country?: string | null; cardNumber?: string | null },
): Promise<BlocklistEntry["kind"] | null> {
  const match = await cachedBlocklist(db, scope.merchantId, scope.mode);
  if (!match) return null;
  const digits = facts.cardNumber?.replace(/\D/g, "") ?? "";
  // A masked number ("4111 11•• •••• 1111") still gives its BIN, never a fingerprint.
  const full = /^\d{12,19}$/.test(digits) && !/[^\d\s-]/.test(facts.cardNumber ?? "");
  const listed = match({
    email: facts.email,
    country: facts.country,
    cardDigits: digits.length >= 6 ? digits : null,
    cardFingerprint: full ? cardFingerprint(digits) : null,
  });
  return listed ? listed.kind : null;
}

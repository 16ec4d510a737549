import "server-only";
import type { Db } from "@/lib/db/client";
import { addressHash, emailHash } from "./fingerprint";
import { matchBlocklist, parseAddress, RULE_OF_KIND } from "./blocklist";
import { describeRiskRule, VELOCITY_RULES, type RiskRule, type RiskSettings } from "./settings";
import { blocklistValues, getRiskSettings, recentAttempts } from "./store";
import { velocityVerdict } from "./velocity";
import type { RiskSimulation, RiskSimulationInput } from "./form-schemas";

/**
 * What the rules would do with a card BIN, an address and an e-mail, right now: the blocklist, then
 * the velocity limits over the recent attempts of that address and e-mail (a new card, on a new
 * invoice). Reads only; nothing is counted.
 */
export async function simulateRisk(db: Db, merchantId: string, input: RiskSimulationInput): Promise<RiskSimulation> {
  const address = input.address && parseAddress(input.address) ? input.address : null;
  const email = input.email || null;
  const settings = await getRiskSettings(db, merchantId);
  const listed = matchBlocklist(await blocklistValues(db, merchantId, input.mode), { cardDigits: input.bin || null, address, email });
  const keys = { cardFingerprint: null, addressHash: address ? addressHash(address) : null, emailHash: email ? emailHash(email) : null };
  const { now, history } = await recentAttempts(db, { merchantId, testMode: input.mode === "test", invoiceId: "(simulated)" }, keys);
  const probe = { invoiceId: "(simulated)", cardFingerprint: "(a new card)", addressHash: keys.addressHash, emailHash: keys.emailHash };
  const rule: RiskRule | null = listed ? RULE_OF_KIND[listed.kind] : velocityVerdict(settings, history, probe, now);
  return {
    rule,
    sentence: rule
      ? `Refused: ${describeRiskRule(rule).toLowerCase()} (${rule}). No provider would be called.`
      : "Allowed: the Pay would go on to the provider.",
    counters: counters(settings, history, keys, now),
  };
}

function counters(
  settings: RiskSettings,
  history: Awaited<ReturnType<typeof recentAttempts>>["history"],
  keys: { addressHash: string | null; emailHash: string | null },
  now: number,
) {
  const failed = (entry: (typeof history)[number]) => entry.outcome === "open" || entry.outcome === "declined";
  const since = (minutes: number) => now - minutes * 60_000;
  const byAddress = keys.addressHash
    ? history.filter((entry) => entry.addressHash === keys.addressHash && entry.at > since(settings.addressWindowMinutes))
    : [];
  const byEmail = keys.emailHash ? history.filter((entry) => entry.emailHash === keys.emailHash && entry.at > since(settings.emailWindowMinutes)) : [];
  const rows: RiskSimulation["counters"] = [];
  if (keys.addressHash) {
    rows.push({
      rule: "address_declines",
      label: VELOCITY_RULES.address_declines.label,
      count: byAddress.filter(failed).length,
      limit: settings.addressDeclines,
    });
    rows.push({
      rule: "address_cards",
      label: VELOCITY_RULES.address_cards.label,
      count: new Set(byAddress.filter((entry) => entry.outcome !== "blocked" && entry.outcome !== "exempt").map((entry) => entry.cardFingerprint)).size,
      limit: settings.addressCards,
    });
  }
  if (keys.emailHash)
    rows.push({ rule: "email_declines", label: VELOCITY_RULES.email_declines.label, count: byEmail.filter(failed).length, limit: settings.emailDeclines });
  return rows;
}

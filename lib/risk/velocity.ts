import type { RiskSettings, VelocityRule } from "./settings";

/**
 * The velocity limits, decided from the recent attempts that share a key with this one. Pure: Pay
 * (lib/risk/check.ts) reads the history inside its lock, the simulator and the property tests
 * build it. Declines: a decline counts, and so does an attempt still open (sent, no answer yet), so
 * that simultaneous Pays cannot all pass; a success and a blocked attempt do not. Different cards:
 * every card sent counts, whatever its outcome.
 */
export type PastAttempt = {
  invoiceId: string;
  cardFingerprint: string | null;
  addressHash: string | null;
  emailHash: string | null;
  outcome: "open" | "declined" | "succeeded" | "blocked" | "exempt";
  at: number;
};

export type AttemptKeys = { invoiceId: string; cardFingerprint: string | null; addressHash: string | null; emailHash: string | null };

const failed = (entry: PastAttempt) => entry.outcome === "open" || entry.outcome === "declined";

export function velocityVerdict(settings: RiskSettings, history: readonly PastAttempt[], attempt: AttemptKeys, now: number): VelocityRule | null {
  const within = (minutes: number) => (entry: PastAttempt) => entry.at > now - minutes * 60_000;
  const byAddress = attempt.addressHash
    ? history.filter((entry) => entry.addressHash === attempt.addressHash && within(settings.addressWindowMinutes)(entry))
    : [];
  if (byAddress.filter(failed).length >= settings.addressDeclines) return "address_declines";
  // Different cards count whatever their outcome: a tester's valid cards succeed.
  const sent = (entry: PastAttempt) => entry.outcome === "open" || entry.outcome === "declined" || entry.outcome === "succeeded";
  if (attempt.cardFingerprint && newCardBeyond(byAddress.filter(sent), attempt.cardFingerprint, settings.addressCards)) return "address_cards";
  if (attempt.cardFingerprint) {
    const byCard = history.filter((entry) => entry.cardFingerprint === attempt.cardFingerprint && within(settings.cardWindowMinutes)(entry));
    if (byCard.filter(failed).length >= settings.cardDeclines) return "card_declines";
  }
  if (attempt.emailHash) {
    const byEmail = history.filter((entry) => entry.emailHash === attempt.emailHash && within(settings.emailWindowMinutes)(entry));
    if (byEmail.filter(failed).length >= settings.emailDeclines) return "email_declines";
  }
  const onInvoice = history.filter((entry) => entry.invoiceId === attempt.invoiceId && sent(entry));
  if (attempt.cardFingerprint && newCardBeyond(onInvoice, attempt.cardFingerprint, settings.invoiceCards)) return "invoice_cards";
  return null;
}

/** Whether this card would be one more different card than `limit` allows among `entries`. */
function newCardBeyond(entries: readonly PastAttempt[], card: string, limit: number): boolean {
  const cards = new Set(entries.map((entry) => entry.cardFingerprint).filter((value): value is string => value !== null));
  return !cards.has(card) && cards.size >= limit;
}

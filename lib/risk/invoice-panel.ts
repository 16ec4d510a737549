import "server-only";
import type { Db } from "@/lib/db/client";
import { describeRiskRule } from "./settings";
import { blockedAttemptsOf, cardIsBlocked, lastCardOfInvoice, type Mode } from "./store";

/**
 * The invoice page's risk parts: every refused Pay for its timeline (rule in words and by name, the
 * card as shown, the would-be amount), and the card last tried with whether it is on the blocklist
 * ("Block this card"). The caller has already found the invoice among the merchant's.
 */
export async function readInvoiceRisk(db: Db, merchantId: string, mode: Mode, invoiceId: string) {
  const [blocked, card] = await Promise.all([blockedAttemptsOf(db, invoiceId), lastCardOfInvoice(db, invoiceId)]);
  return {
    blocked: blocked.map((row) => ({ ...row, ruleLabel: describeRiskRule(row.rule), at: row.at.toISOString() })),
    card: card ? { label: card.label, blocked: await cardIsBlocked(db, merchantId, mode, card.fingerprint) } : null,
  };
}

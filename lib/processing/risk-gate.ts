import "server-only";
import type { Db } from "@/lib/db/client";
import { recordInvoiceEvent } from "@/lib/invoices/events";
import { queueEventDelivery } from "@/lib/invoices/status";
import type { InvoiceRow } from "@/lib/invoices/store";
import { customerFacts } from "@/lib/risk/blocklist";
import { checkPay, type PayRiskDecision } from "@/lib/risk/check";
import { describeRiskRule } from "@/lib/risk/settings";
import { TEST_CARDS } from "@/lib/sandbox/cards";

export const RISK_BLOCKED = "risk.blocked";

const PUBLISHED_TEST_CARDS: ReadonlySet<string> = new Set(TEST_CARDS.map((card) => card.number));

/**
 * The risk check of one Pay (lib/risk/check.ts), before the invoice is taken: in one transaction the
 * check counts, decides and records the attempt; a refusal writes `risk.blocked` (the rule and the
 * would-be amount in `meta.risk`) in the same transaction, and the invoice stays as it was (payable
 * by a real customer unless the refusal was its own per-invoice limit, which keeps refusing).
 */
export async function riskGate(db: Db, invoice: InvoiceRow, card: { number: string }, address: string | null): Promise<PayRiskDecision> {
  const { decision, event } = await db.transaction(async (tx) => {
    const decision = await checkPay(tx, {
      merchantId: invoice.merchantId,
      mode: invoice.testMode ? "test" : "live",
      invoiceId: invoice.id,
      amount: invoice.amount,
      currency: invoice.currency,
      cardNumber: card.number,
      address,
      ...customerFacts(invoice.resolvedCustomer),
      // Developers try the published test cards again and again: in test mode those are never counted.
      velocityExempt: invoice.testMode && PUBLISHED_TEST_CARDS.has(card.number.replace(/\D/g, "")),
    });
    if (decision.kind === "pass") return { decision, event: null };
    const risk = {
      rule: decision.rule,
      rule_description: describeRiskRule(decision.rule),
      card: decision.cardLabel,
      amount: invoice.amount,
      currency: invoice.currency,
    };
    return { decision, event: await recordInvoiceEvent(tx, invoice, RISK_BLOCKED, { risk }) };
  });
  if (event) await queueEventDelivery(db, invoice.id, event);
  return decision;
}

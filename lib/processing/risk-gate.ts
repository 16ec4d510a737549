import "server-only";
import type { Db } from "@/lib/db/client";
import { recordInvoiceEvent, type RecordedEvent } from "@/lib/invoices/events";
import type { InvoiceRow } from "@/lib/invoices/store";
import { customerFacts } from "@/lib/risk/blocklist";
import { checkPay, type PayRiskDecision } from "@/lib/risk/check";
import { describeRiskRule } from "@/lib/risk/settings";
import { blockRiskAttempt } from "@/lib/risk/store";
import { TEST_CARDS } from "@/lib/sandbox/cards";

export const RISK_BLOCKED = "risk.blocked";

const PUBLISHED_TEST_CARDS: ReadonlySet<string> = new Set(TEST_CARDS.map((card) => card.number));

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The check's decision and, for a refusal, its `risk.blocked` event, to deliver once the transaction has committed. */
export type RiskGateResult = { decision: PayRiskDecision; event: RecordedEvent | null };

/**
 * The risk check of one Pay (lib/risk/check.ts), in the transaction that takes the invoice
 * (lib/processing/request.ts): one statement counts and records the attempt, the rules decide; a
 * refusal marks the attempt blocked with its rule and writes `risk.blocked` (the rule and the
 * would-be amount in `meta.risk`), and the invoice stays as it was (payable by a real customer
 * unless the refusal was its own per-invoice limit, which keeps refusing).
 */
export async function riskGate(tx: Tx, invoice: InvoiceRow, card: { number: string }, address: string | null): Promise<RiskGateResult> {
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
  await blockRiskAttempt(tx, decision.riskAttemptId, decision.rule);
  const risk = {
    rule: decision.rule,
    rule_description: describeRiskRule(decision.rule),
    card: decision.cardLabel,
    amount: invoice.amount,
    currency: invoice.currency,
  };
  return { decision, event: await recordInvoiceEvent(tx, invoice, RISK_BLOCKED, { risk }) };
}

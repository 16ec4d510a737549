import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import { IllegalTransitionError } from "@/lib/invoices/state-machine";
import { changeInvoiceStatusWithin, queueEventDelivery, queueStatusEvent, StaleInvoiceStatusError, type StatusChange } from "@/lib/invoices/status";
import type { RecordedEvent } from "@/lib/invoices/events";
import { logger } from "@/lib/logger";
import type { InvoiceDirection } from "@/lib/providers";
import { problem, type Problem } from "@/lib/problems";
import type { ProviderOutcome } from "@/lib/providers/kit/adapter";
import { attemptsLimitOf } from "@/lib/invoices/lifecycle";
import { ALREADY_PROCESSING, payabilityProblems } from "./payable";
import { runAttempt, type ProviderCall } from "./run-attempt";
import { scheduleFollowUps } from "./follow-ups";
import { settleInvoice } from "./settle";
import { listAttemptTargets } from "./targets";
import { routeAgainAtPay } from "./route-at-pay";
import { asksForThreeDs } from "@/lib/invoices/three-ds";
import type { CardFacts } from "@/lib/cards/bin";
import type { PayRiskDecision } from "@/lib/risk/check";
import { settleRiskAttempt } from "@/lib/risk/store";
import type { RiskGateResult } from "./risk-gate";
import { RISK_REFUSAL } from "@/lib/risk/settings";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type PayResult =
  { kind: "finished"; invoice: InvoiceRow } | { kind: "redirect"; url: string; invoice: InvoiceRow } | { kind: "refused"; problems: Problem[] };

export const NOT_FOUND = (): Problem => problem("invoice_not_found", "No such invoice.");

export type PaymentRequest = {
  direction: InvoiceDirection;
  /** Builds the instruction from the invoice as it is at the time of the attempt and calls the adapter. */
  call: ProviderCall;
  /** Values no exchange may contain (the full card number, the CVC). */
  secrets: readonly string[];
  /** Further reasons to refuse this kind of request. */
  check?: (invoice: InvoiceRow) => Problem[];
  /**
   * A cascade job: start after this connection, whose attempt a status request or a
   * callback settled as a soft failure, instead of at the invoice's current connection.
   */
  afterConnectionId?: string;
  /** The card's brand and issuing country, when this request carries a card: routing may decide again (route-at-pay.ts). */
  cardFacts?: CardFacts | null;
  /**
   * The paying card's last four digits, recorded on the invoice once taken (with `cardFacts`' brand and
   * issuing country), so search finds it by them and the invoice page shows the card without its number.
   */
  cardLastFour?: string | null;
  /**
   * The risk check (lib/processing/risk-gate.ts), run once the invoice is known to be payable, in
   * the transaction that takes it: a refusal (recorded, its event returned for delivery once
   * committed) answers `blocked_by_risk` and nothing is sent; a take that loses to another Pay
   * rolls the attempt back with it.
   */
  risk?: (tx: Tx, invoice: InvoiceRow) => Promise<RiskGateResult>;
};

/** The code of a Pay refused by a risk rule; its message never names the rule (it would teach a tester). */
const BLOCKED_BY_RISK = "blocked_by_risk";

const SUCCEEDED_STATUSES = new Set(["processed", "partially_processed", "authorized"]);

/** Attempts down the targets until one is not a soft failure or the attempts limit is reached. */
async function attemptDownTheTargets(db: Db, taken: InvoiceRow, request: PaymentRequest): Promise<ProviderOutcome> {
  const limit = attemptsLimitOf(taken);
  let seq = taken.attemptsCount;
  let last: ProviderOutcome = { kind: "soft_failed", resolution: "provider_unavailable", message: "No connection could be tried." };
  for (const target of await listAttemptTargets(db, taken, { after: request.afterConnectionId })) {
    if (seq >= limit) break;
    seq += 1;
    // A card payment whose routing rule requires 3-D Secure: the attempt starts as "requested" (lib/invoices/three-ds.ts).
    const threeDsRequested = request.direction === "payment" && request.cardFacts !== undefined && asksForThreeDs(taken);
    ({ outcome: last } = await runAttempt(db, taken, { ...target, seq }, request.call, request.secrets, { threeDsRequested }));
    if (last.kind !== "soft_failed") break;
  }
  return last;
}

/**
 * One payment request: refuse what cannot be paid, take the invoice (created or process_failed →
 * processing, a compare-and-set, so of two simultaneous requests only one reaches a provider),
 * then attempts down the targets until one is not a soft failure or the attempts limit is reached,
 * and settle the invoice on the last outcome.
 */
export async function runPaymentRequest(db: Db, invoiceId: string, request: PaymentRequest): Promise<PayResult> {
  const invoice = await readInvoice(db, invoiceId);
  if (!invoice) return { kind: "refused", problems: [NOT_FOUND()] };
  const problems = payabilityProblems(invoice, request.direction);
  if (problems.length === 0) problems.push(...(request.check?.(invoice) ?? []));
  if (problems.length > 0) return { kind: "refused", problems };
  let taking: { risk: PayRiskDecision | null; change: StatusChange | null; refusal: RecordedEvent | null };
  try {
    taking = await db.transaction(async (tx) => {
      const checked = request.risk ? await request.risk(tx, invoice) : null;
      if (checked?.decision.kind === "blocked") return { risk: checked.decision, change: null, refusal: checked.event };
      const change = await changeInvoiceStatusWithin(tx, invoice, "processing", undefined, { reason: `${invoice.direction} request` });
      return { risk: checked?.decision ?? null, change, refusal: null };
    });
  } catch (error) {
    if (error instanceof StaleInvoiceStatusError) return { kind: "refused", problems: [ALREADY_PROCESSING()] };
    throw error;
  }
  const { risk, change } = taking;
  if (!change) {
    if (taking.refusal) await queueEventDelivery(db, invoice.id, taking.refusal);
    return { kind: "refused", problems: [problem(BLOCKED_BY_RISK, RISK_REFUSAL)] };
  }
  await queueStatusEvent(db, change);
  let taken = change.row;
  if (request.cardFacts !== undefined) taken = await routeAgainAtPay(db, taken, request.cardFacts);
  if (request.cardLastFour) {
    const facts = { cardBrand: request.cardFacts?.brand ?? null, cardCountry: request.cardFacts?.country ?? null };
    await db
      .update(invoices)
      .set({ cardLastFour: request.cardLastFour, ...facts })
      .where(eq(invoices.id, invoiceId));
  }
  let last: ProviderOutcome;
  try {
    last = await attemptDownTheTargets(db, taken, request);
  } catch (error) {
    // The invoice must not stay `processing` for ever; a request may have left, so the outcome is unknown.
    logger.error("payment request failed", { invoiceId, error: error instanceof Error ? error.message : "unknown" });
    last = { kind: "unknown", message: "The payment request stopped unexpectedly; its outcome is not known." };
  }
  const current = (await readInvoice(db, invoiceId)) ?? taken;
  let settled: InvoiceRow;
  try {
    settled = await settleInvoice(db, current, last, "provider outcome");
  } catch (error) {
    // Only the crash sweep moves a `processing` invoice meanwhile (after minutes without an answer);
    // its status request then decides, and the caller sees the invoice as it now is.
    if (!(error instanceof StaleInvoiceStatusError) && !(error instanceof IllegalTransitionError)) throw error;
    logger.warn("payment request settled by another writer", { invoiceId, error: error.message });
    settled = (await readInvoice(db, invoiceId)) ?? current;
  }
  if (risk) {
    const outcome = SUCCEEDED_STATUSES.has(settled.status) ? "succeeded" : settled.status === "process_failed" ? "declined" : "open";
    await settleRiskAttempt(db, risk.riskAttemptId, outcome);
  }
  await scheduleFollowUps(db, settled);
  if (last.kind === "pending" && last.redirectUrl) return { kind: "redirect", url: last.redirectUrl, invoice: settled };
  return { kind: "finished", invoice: settled };
}

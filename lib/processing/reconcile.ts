import "server-only";
import type { Db } from "@/lib/db/client";
import { attemptAwaitsAnswer, attemptIsOpen, GAVE_UP_RESOLUTION, reconciliationGaveUp, waitsForStatus } from "@/lib/invoices/lifecycle";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import { changeInvoiceStatus, StaleInvoiceStatusError } from "@/lib/invoices/status";
import type { ProviderOutcome } from "@/lib/providers/kit/adapter";
import { applyAttemptOutcome } from "./apply-outcome";
import { findAttemptOf, type AttemptRow } from "./attempts";
import { queryAttemptStatus } from "./run-attempt";

/**
 * Reconciliation (spec 6): a status request for an attempt whose outcome is pending or
 * unknown, applied through the one path for late outcomes (applyAttemptOutcome). It never starts a
 * new attempt: while the outcome is unknown the money may have moved, and a second attempt could
 * charge or pay out twice.
 */

export type ReconcileResult =
  /** Nothing to ask: the attempt or invoice no longer waits (already settled, superseded, gone). */
  | { kind: "nothing_open"; reason: string; invoice?: InvoiceRow }
  /** The provider's answer settled the attempt. */
  | { kind: "settled"; invoice: InvoiceRow; attempt: AttemptRow; outcome: ProviderOutcome }
  /** Asked, and the attempt is still open (the provider says pending, or did not answer). */
  | { kind: "still_open"; invoice: InvoiceRow; attempt: AttemptRow; outcome: ProviderOutcome };

/** Why this attempt cannot be asked about now, or undefined when it can. */
export function notOpenReason(invoice: InvoiceRow, attempt: AttemptRow | undefined, options: { afterGivingUp?: boolean } = {}): string | undefined {
  if (!waitsForStatus(invoice.status)) return `the invoice is ${invoice.status.replaceAll("_", " ")}`;
  if (reconciliationGaveUp(invoice) && !options.afterGivingUp) return "reconciliation already gave up on this invoice";
  if (!attempt) return "the attempt does not exist";
  if (attempt.seq < invoice.attemptsCount) return `the invoice has moved on to attempt ${invoice.attemptsCount}`;
  if (!attemptAwaitsAnswer(attempt.status)) return `the attempt is ${attempt.status.replaceAll("_", " ")}`;
  return undefined;
}

/**
 * One status request for the attempt, applied. Idempotent: an attempt or invoice that no longer
 * waits is left alone, so a job that runs twice changes nothing the second time. `afterGivingUp`
 * (the invoice page's "Check status now") still asks about an invoice reconciliation gave up on:
 * a person may learn the outcome after the schedule ended.
 */
export async function reconcileAttempt(
  db: Db,
  input: { invoiceId: string; attemptId: string },
  options: { reason: string; afterGivingUp?: boolean },
): Promise<ReconcileResult> {
  const invoice = await readInvoice(db, input.invoiceId);
  if (!invoice) return { kind: "nothing_open", reason: "no such invoice" };
  const attempt = await findAttemptOf(db, input.invoiceId, input.attemptId);
  const refused = notOpenReason(invoice, attempt, options);
  if (refused || !attempt) return { kind: "nothing_open", reason: refused ?? "the attempt does not exist", invoice };
  const { outcome, exchanges } = await queryAttemptStatus(db, invoice, attempt);
  const applied = await applyAttemptOutcome(db, { ...input, outcome, exchanges, reason: options.reason });
  if (applied.kind !== "applied") return { kind: "nothing_open", reason: applied.reason, invoice: applied.invoice };
  const still = attemptIsOpen(applied.attempt.status) && waitsForStatus(applied.invoice.status);
  return { kind: still ? "still_open" : "settled", invoice: applied.invoice, attempt: applied.attempt, outcome };
}

/**
 * The invoice's lifetime ended while its attempt was still open. A payment whose attempt is pending
 * (the customer left the 3-D Secure page; the provider answers "still waiting") will not complete
 * without the customer: the invoice expires. Anything else (the provider never answered, or a payout
 * the provider is still working on) may have moved money, so it is never turned into a failure a
 * new attempt could follow: it stays process_error with the resolution unable_to_reconcile, for a
 * person to settle (a late callback or "Check status now" still applies).
 */
export async function giveUpReconciling(db: Db, invoice: InvoiceRow, attempt: AttemptRow): Promise<InvoiceRow> {
  const abandoned = invoice.direction === "payment" && invoice.status === "process_pending" && attempt.status === "pending";
  try {
    return abandoned
      ? await changeInvoiceStatus(db, invoice, "expired", "expired", { reason: "lifetime ended while the payment waited for the customer" })
      : await changeInvoiceStatus(db, invoice, "process_error", GAVE_UP_RESOLUTION, {
          reason: "lifetime ended without a final answer from the provider",
        });
  } catch (error) {
    if (error instanceof StaleInvoiceStatusError) return (await readInvoice(db, invoice.id)) ?? invoice;
    throw error;
  }
}

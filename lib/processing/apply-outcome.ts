import "server-only";
import type { Db } from "@/lib/db/client";
import { attemptIsOpen, waitsForStatus } from "@/lib/invoices/lifecycle";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import { IllegalTransitionError } from "@/lib/invoices/state-machine";
import { StaleInvoiceStatusError } from "@/lib/invoices/status";
import { logger } from "@/lib/logger";
import type { ProviderOutcome } from "@/lib/providers/kit/adapter";
import { findAttemptOf, recordOutcome, type AttemptRow } from "./attempts";
import type { Exchange } from "@/lib/providers/kit/provider-http";
import { schedulePayoutCascade } from "./follow-ups";
import { settleInvoice, targetOf } from "./settle";

export type ApplyResult =
  | { kind: "applied"; invoice: InvoiceRow; attempt: AttemptRow }
  /** The invoice has left this attempt (a newer one exists), or the attempt or invoice is already final: nothing changed. */
  | { kind: "superseded"; reason: string; invoice?: InvoiceRow }
  /**
   * The attempt's own request is still waiting for the provider's answer: nothing is applied now,
   * so the request and a callback never both settle it (the provider sends its callback again; a
   * status request asks later).
   */
  | { kind: "in_flight"; reason: string; invoice: InvoiceRow };

/**
 * An outcome learnt after the attempt's request (a status request, a provider callback) applied
 * through the one path: onto the attempt (compare-and-set on the status read, so of two answers
 * arriving together only one settles it), then the invoice through the state machine. It applies
 * only to the invoice's latest attempt while that attempt is open and the invoice waits for it, so a
 * late answer about an attempt the invoice has left (after cascading) never overwrites the newer
 * attempt's outcome. One exception to "waits": a success for the attempt that was still open when
 * the invoice expired (the customer finished 3-D Secure after the lifetime) moves the expired
 * invoice to processed: money taken is never hidden.
 *
 * Follow-up: a payout whose attempt is now a soft failure cascades to the next connection in a job.
 */
export async function applyAttemptOutcome(
  db: Db,
  input: { invoiceId: string; attemptId: string; outcome: ProviderOutcome; reason: string; exchanges?: readonly Exchange[] },
): Promise<ApplyResult> {
  const invoice = await readInvoice(db, input.invoiceId);
  if (!invoice) return { kind: "superseded", reason: "no such invoice" };
  const attempt = await findAttemptOf(db, input.invoiceId, input.attemptId);
  if (!attempt) return { kind: "superseded", reason: "no such attempt of this invoice", invoice };
  if (attempt.seq < invoice.attemptsCount) return { kind: "superseded", reason: `the invoice has moved on to attempt ${invoice.attemptsCount}`, invoice };
  if (attempt.status === "in_flight" || invoice.status === "processing") {
    return { kind: "in_flight", reason: "the attempt's request is still waiting for the provider's answer", invoice };
  }
  if (!attemptIsOpen(attempt.status)) return { kind: "superseded", reason: `the attempt is already ${attempt.status.replaceAll("_", " ")}`, invoice };
  const target = targetOf(invoice, input.outcome);
  const lateSuccess =
    invoice.status === "expired" && (target.status === "processed" || target.status === "partially_processed" || target.status === "authorized");
  if (!waitsForStatus(invoice.status) && !lateSuccess)
    return { kind: "superseded", reason: `the invoice is already ${invoice.status.replaceAll("_", " ")}`, invoice };
  if (input.outcome.kind === "unknown") {
    // Still not known: the attempt keeps its state; only the exchange is logged.
    const kept = { ...input.outcome, kind: attempt.status === "pending" ? "pending" : "unknown" } as ProviderOutcome;
    const recorded = await recordOutcome(db, attempt, kept, input.exchanges ?? []);
    return { kind: "applied", invoice, attempt: recorded ?? attempt };
  }
  const recorded = await recordOutcome(db, attempt, input.outcome, input.exchanges ?? []);
  if (!recorded)
    return { kind: "superseded", reason: "another answer settled the attempt first", invoice: (await readInvoice(db, input.invoiceId)) ?? invoice };
  if (lateSuccess) logger.warn("late success after expiry", { invoiceId: invoice.id, attemptId: attempt.id });
  let settled: InvoiceRow;
  try {
    settled = await settleInvoice(db, invoice, input.outcome, lateSuccess ? `${input.reason}: success after the invoice expired` : input.reason);
  } catch (error) {
    if (!(error instanceof StaleInvoiceStatusError) && !(error instanceof IllegalTransitionError)) throw error;
    if (error instanceof IllegalTransitionError) logger.error("late outcome not applicable to the invoice", { invoiceId: invoice.id, error: error.message });
    const now = await readInvoice(db, input.invoiceId);
    return { kind: "applied", invoice: now ?? invoice, attempt: recorded };
  }
  await schedulePayoutCascade(db, settled, recorded);
  return { kind: "applied", invoice: settled, attempt: recorded };
}

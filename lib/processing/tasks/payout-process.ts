import "server-only";
import { attemptsExhausted } from "@/lib/invoices/lifecycle";
import { readInvoice } from "@/lib/invoices/store";
import { defineTask } from "@/lib/jobs/task";
import { findAttemptOf } from "../attempts";
import { processPayout } from "../engine";
import { ProblemsError } from "@/lib/errors";
import { nextTargets } from "../targets";

/**
 * `payout-process`: a payout's next attempt after a status request or a callback settled its latest
 * attempt as a soft failure (queued by schedulePayoutCascade): the connections after the failed one,
 * with the stored masked card number (as the engine sends a payout without the full number). Only
 * while that attempt is still the invoice's latest and the invoice is still process_failed with
 * attempts left.
 */
export const payoutProcessTask = defineTask("payout-process", async (db, { invoiceId, afterAttemptId }) => {
  const invoice = await readInvoice(db, invoiceId);
  if (!invoice || invoice.direction !== "payout" || invoice.status !== "process_failed" || attemptsExhausted(invoice)) return;
  const attempt = await findAttemptOf(db, invoiceId, afterAttemptId);
  if (!attempt || attempt.seq !== invoice.attemptsCount || attempt.status !== "soft_failed") return;
  if ((await nextTargets(db, invoice, attempt.connectionId)).length === 0) return;
  try {
    await processPayout(db, invoiceId, { afterConnectionId: attempt.connectionId });
  } catch (error) {
    // Refused (expired, taken by another request meanwhile): nothing to retry.
    if (!(error instanceof ProblemsError)) throw error;
  }
});

import "server-only";
import { attemptsExhausted, attemptsLimitOf, isPastLifetime } from "@/lib/invoices/lifecycle";
import type { InvoiceRow } from "@/lib/invoices/store";
import type { InvoiceDirection } from "@/lib/providers";
import { problem, type Problem } from "@/lib/problems";

export const ALREADY_PROCESSING = (): Problem => problem("invoice_processing", "This invoice is already being paid; wait for its result.");

const EXPIRED = (): Problem => problem("invoice_expired", "This invoice has expired and can no longer be paid.");

/**
 * Why the invoice cannot go to a provider now, or nothing. Only `created` and a `process_failed`
 * with attempts left may start a payment request, and only within the invoice's lifetime; the
 * status move to `processing` afterwards is the lock that keeps two requests from both reaching
 * the provider.
 */
export function payabilityProblems(invoice: InvoiceRow, direction: InvoiceDirection, now: Date = new Date()): Problem[] {
  if (invoice.direction !== direction) {
    return [problem("wrong_direction", `This is a ${invoice.direction} invoice, not a ${direction} invoice.`)];
  }
  if (!invoice.connectionId) return [problem("no_connection", "This invoice has no connection to send it to.")];
  switch (invoice.status) {
    case "created":
      return isPastLifetime(invoice, now) ? [EXPIRED()] : [];
    case "process_failed":
      if (attemptsExhausted(invoice)) {
        return [problem("attempts_exhausted", `This invoice has used all ${attemptsLimitOf(invoice)} attempts and cannot be tried again.`)];
      }
      return isPastLifetime(invoice, now) ? [EXPIRED()] : [];
    case "processing":
    case "process_pending":
      return [ALREADY_PROCESSING()];
    case "process_error":
      return [problem("outcome_unknown", "The provider's answer to the last attempt is not known yet; a status request must settle it first.")];
    case "expired":
      return [EXPIRED()];
    default:
      return [problem("invoice_final", `This invoice is ${invoice.status.replaceAll("_", " ")} and cannot be paid again.`)];
  }
}

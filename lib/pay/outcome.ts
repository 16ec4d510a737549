import type { InvoiceStatus, Resolution } from "@/lib/db/enums";

/**
 * What the hosted page tells the customer about their payment, in plain words. Plain data: the
 * server decides it, the page (lib/pay/page/render.ts) only shows it.
 */
export type HostedOutcome =
  | { kind: "open" }
  | { kind: "paid" }
  /** Only part was collected (allow_partially); `processedAmount` is decimal text. */
  | { kind: "partly_paid"; processedAmount: string }
  | { kind: "declined"; reason: string }
  | { kind: "try_later"; reason: string }
  | { kind: "in_progress" }
  /** Reserved on the card, not taken yet (`flow: "authorize"`): the merchant captures it later, or releases it. */
  | { kind: "authorized" }
  /** `expired`: the invoice's lifetime ended before it was paid. */
  | { kind: "closed"; reason: string; expired?: boolean };

const DECLINE_REASONS: Partial<Record<Resolution, string>> = {
  issuer_decline: "Your bank declined the payment.",
  insufficient_funds: "The card does not have enough funds for this payment.",
  invalid_cvv: "The CVC does not match the card.",
  auth_3ds_failed: "The 3-D Secure check was not passed.",
  general_error: "The payment could not be completed.",
};

const TRY_LATER: ReadonlySet<Resolution> = new Set(["provider_unavailable", "provider_auth_error", "unable_to_reconcile", "mode_mismatch"]);

export type OutcomeSubject = { status: InvoiceStatus; resolution: Resolution | null; processedAmount: string | null };

export function describeOutcome(invoice: OutcomeSubject): HostedOutcome {
  switch (invoice.status) {
    case "created":
      return { kind: "open" };
    case "processed":
    case "refunding":
    case "refunded":
    case "partially_refunded":
      return { kind: "paid" };
    case "partially_processed":
      return invoice.processedAmount ? { kind: "partly_paid", processedAmount: invoice.processedAmount } : { kind: "paid" };
    case "processing":
    case "process_pending":
    case "process_error":
      return { kind: "in_progress" };
    case "authorized":
    case "capturing":
      return { kind: "authorized" };
    case "voiding":
    case "voided":
      return { kind: "closed", reason: "The amount reserved on your card was released: nothing was taken." };
    case "expired":
      return { kind: "closed", reason: "This payment link has expired.", expired: true };
    case "process_failed": {
      if (invoice.resolution && TRY_LATER.has(invoice.resolution)) {
        return { kind: "try_later", reason: "The payment service is not available right now. Please try again later." };
      }
      return { kind: "declined", reason: (invoice.resolution && DECLINE_REASONS[invoice.resolution]) ?? "The payment was declined." };
    }
    default:
      return { kind: "closed", reason: "This invoice can no longer be paid." };
  }
}

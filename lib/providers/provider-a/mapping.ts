import "server-only";
import { toMinorUnits } from "@/lib/money";
import type { DisputeReason, DisputeStatus } from "@/lib/db/enums";
import type { CancelPayoutOutcome, CaptureOutcome, DisputeReport, ProviderOutcome, RefundOutcome, SavedCard, VoidOutcome } from "@/lib/providers/kit/adapter";
import type { SandboxAuthorizationDecline } from "@/lib/sandbox/authorizations";
import type { SandboxRefundDecline, SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { readBack, refusalOf, type DisputeRefusal } from "../server/dispute-answers";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import type { ACapture, ADispute, ARefund, ATransaction, AVoid } from "./wire";

/**
 * What Provider A's words mean for the invoice, read by the adapter and the callbacks and, the
 * other way round, by the sandbox when it words a test card's decline.
 */

/** A words declines as ISO 8583 response codes. */
export const A_DECLINES: Readonly<Record<CodedDecline, { code: string; reason: string }>> = {
  issuer_decline: { code: "05", reason: "Do not honour" },
  insufficient_funds: { code: "51", reason: "Insufficient funds" },
  invalid_cvv: { code: "N7", reason: "CVV2 mismatch" },
  auth_3ds_failed: { code: "3D", reason: "3-D Secure authentication failed" },
};

const PART_OUTCOMES = { paid: "succeeded", failed: "failed", processing: "pending", canceled: "failed" } as const;

/** A transaction (an answer or a notification's) as the service's outcome. */
export function outcomeOf(transaction: ATransaction): ProviderOutcome {
  const providerReference = transaction.transaction_id;
  const parts = transaction.parts?.map((part) => ({
    providerReference: part.part_reference,
    amountMinor: toMinorUnits(part.amount, transaction.currency),
    status: PART_OUTCOMES[part.status],
  }));
  switch (transaction.status) {
    case "authorized":
      // Authorize now, capture later: reserved, nothing taken yet.
      return {
        kind: "succeeded",
        providerReference,
        processedAmountMinor: paidMinorOf(transaction.amount_authorized, transaction.currency),
        authorized: transaction.authorization_expires_at ? { until: new Date(transaction.authorization_expires_at) } : {},
      };
    case "approved":
    case "partially_approved":
    case "completed":
    case "partially_completed": {
      const processedAmountMinor = transaction.amount_processed === undefined ? 0n : toMinorUnits(transaction.amount_processed, transaction.currency);
      return { kind: "succeeded", providerReference, processedAmountMinor, ...(parts ? { parts } : {}), ...savedCardOf(transaction) };
    }
    case "canceled":
    case "partially_canceled": {
      // What a cancel left paid (lib/processing/cancel-payout.ts reads the cancel itself with cancelOutcomeOf).
      const processedAmountMinor = paidMinorOf(transaction.amount_processed, transaction.currency);
      return transaction.status === "canceled"
        ? { kind: "declined", resolution: "general_error", providerReference, message: "The payout was canceled before any of it was paid." }
        : { kind: "succeeded", providerReference, processedAmountMinor, ...(parts ? { parts } : {}) };
    }
    case "3ds_required":
    case "processing":
      return {
        kind: "pending",
        providerReference,
        ...(transaction.redirect_url ? { redirectUrl: transaction.redirect_url } : {}),
        ...(parts ? { parts } : {}),
      };
    case "declined":
    case "failed":
      return {
        kind: "declined",
        resolution: declineResolution(A_DECLINES, (decline) => decline.code === transaction.decline_code),
        providerReference,
        message: transaction.decline_reason ?? `Declined by Provider A (${transaction.decline_code ?? "no code"}).`,
      };
  }
}

/** A's refund statuses and decline codes (ISO 8583, as its payment declines): the sandbox words its decisions with them, the adapter reads them back. */
export const A_REFUND_STATUS: Readonly<Record<SandboxRefundStatus, ARefund["status"]>> = { succeeded: "refunded", pending: "processing", declined: "declined" };
export const A_REFUND_DECLINES: Readonly<Record<SandboxRefundDecline, { code: string; reason: string }>> = {
  declined: { code: "57", reason: "Refund not permitted by the issuer" },
  exceeds: { code: "13", reason: "Invalid amount: the refunds would exceed the amount processed" },
};

/** A refund answer as the service's outcome. */
export function refundOutcomeOf(refund: ARefund): RefundOutcome {
  const providerReference = refund.refund_id;
  switch (refund.status) {
    case "refunded":
      return { kind: "succeeded", providerReference };
    case "processing":
      return { kind: "pending", providerReference };
    case "declined":
      return { kind: "declined", providerReference, message: refund.decline_reason ?? `Refund declined by Provider A (${refund.decline_code ?? "no code"}).` };
  }
}

/** An amount A reports that may be zero (a payout canceled before any part was paid). */
const paidMinorOf = (text: string | undefined, currency: string) => (text === undefined || /^0+(\.0+)?$/.test(text) ? 0n : toMinorUnits(text, currency));

/** A cancel's answer: what was stopped and what was already paid. */
export function cancelOutcomeOf(transaction: ATransaction): CancelPayoutOutcome {
  const providerReference = transaction.transaction_id;
  const paidMinor = paidMinorOf(transaction.amount_processed, transaction.currency);
  const parts = transaction.parts?.map((part) => ({
    providerReference: part.part_reference,
    amountMinor: toMinorUnits(part.amount, transaction.currency),
    status: PART_OUTCOMES[part.status],
  }));
  if (transaction.status === "canceled" || transaction.status === "partially_canceled") {
    return { kind: transaction.status, providerReference, paidMinor, ...(parts ? { parts } : {}) };
  }
  // Not canceled: the payout was already final, which the status request then reports.
  return { kind: "too_late", message: `Provider A answered the cancel with the payout ${transaction.status.replaceAll("_", " ")}.` };
}

/** A's `card_token` object, when the payment kept the card. */
function savedCardOf(transaction: ATransaction): { savedCard?: SavedCard } {
  const token = transaction.card_token;
  if (!token) return {};
  return {
    savedCard: {
      token: token.token_id,
      brand: token.brand ?? null,
      lastFour: token.last4,
      expiryMonth: Number(token.exp_month),
      expiryYear: Number(token.exp_year),
    },
  };
}

/** A's capture and void refusals (ISO 8583 style, as its payment declines): the sandbox words its decisions with them, the adapter reads them back. */
export const A_AUTHORIZATION_DECLINES: Readonly<Record<SandboxAuthorizationDecline, { code: string; reason: string }>> = {
  expired: { code: "54", reason: "Authorization expired" },
  already_captured: { code: "94", reason: "Duplicate: the authorization was already captured" },
  voided: { code: "12", reason: "Invalid transaction: the authorization was voided" },
  exceeds: { code: "13", reason: "Invalid amount: more than was authorized" },
  partial_not_allowed: { code: "13", reason: "Invalid amount: only the whole authorization can be captured" },
};

/** A capture answer as the service's outcome. */
export function captureOutcomeOf(capture: ACapture): CaptureOutcome {
  if (capture.status === "captured")
    return { kind: "captured", providerReference: capture.capture_id, capturedMinor: toMinorUnits(capture.amount_captured, capture.currency) };
  return {
    kind: "declined",
    providerReference: capture.capture_id,
    message: capture.decline_reason ?? `Capture declined by Provider A (${capture.decline_code ?? "no code"}).`,
  };
}

/** A void answer as the service's outcome. */
export function voidOutcomeOf(voided: AVoid): VoidOutcome {
  if (voided.status === "voided") return { kind: "voided", providerReference: voided.void_id };
  return { kind: "declined", message: voided.decline_reason ?? `Void declined by Provider A (${voided.decline_code ?? "no code"}).` };
}

/**
 * A's dispute words (../wire.ts): its statuses and the card schemes' reason codes for the service's
 * dispute statuses and reasons, and its refusals. The sandbox words its disputes with them, the
 * adapter and the callbacks read them back (a reason code not in the table is `other`).
 */
export const A_DISPUTE_STATUS: Readonly<Record<DisputeStatus, ADispute["status"]>> = {
  needs_response: "evidence_required",
  under_review: "in_review",
  won: "won",
  lost: "lost",
  accepted: "accepted",
};
export const A_DISPUTE_REASONS: Readonly<Record<DisputeReason, string>> = {
  fraudulent: "10.4",
  not_received: "13.1",
  not_as_described: "13.3",
  duplicate: "12.6.1",
  credit_not_processed: "13.6",
  other: "13.7",
};
export const A_DISPUTE_REFUSALS: Readonly<Record<DisputeRefusal, { code: string; message: string }>> = {
  deadline_passed: { code: "evidence_window_closed", message: "The dispute's evidence_due_at has passed." },
  closed: { code: "dispute_not_open", message: "The dispute takes no response now." },
};

/** A dispute (an answer or a notification) as the service's report. */
export function disputeReportOf(dispute: ADispute): DisputeReport {
  return {
    disputeReference: dispute.dispute_id,
    paymentReference: dispute.transaction_id,
    ...(dispute.request_id ? { paymentKey: dispute.request_id } : {}),
    amountMinor: toMinorUnits(dispute.amount_disputed, dispute.currency),
    currency: dispute.currency,
    reason: readBack(A_DISPUTE_REASONS, dispute.reason_code, "other"),
    providerReason: dispute.reason_code,
    status: readBack(A_DISPUTE_STATUS, dispute.status, "needs_response"),
    evidenceDueBy: new Date(dispute.evidence_due_at),
  };
}

/** A's refusal code of a dispute request, as the service's. */
export const disputeRefusalOf = (code: string | undefined) => refusalOf(A_DISPUTE_REFUSALS, (refusal) => refusal.code === code);

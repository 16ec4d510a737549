import "server-only";
import type { DisputeReason, DisputeStatus } from "@/lib/db/enums";
import type { DisputeReport, ProviderOutcome, RefundOutcome, SavedCard } from "@/lib/providers/kit/adapter";
import type { SandboxRefundDecline, SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { readBack, refusalOf, type DisputeRefusal } from "../server/dispute-answers";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import type { FCharge, FDispute, FErrorCode, FFailureCode, FRefund } from "./wire";

/**
 * What Provider F's words mean for the invoice, read by the adapter and the callbacks and, the
 * other way round, by the sandbox when it fails a test card's charge.
 */

export const F_DECLINES = {
  issuer_decline: "card_declined",
  insufficient_funds: "insufficient_funds",
  invalid_cvv: "incorrect_cvc",
  auth_3ds_failed: "authentication_failed",
} as const satisfies Record<CodedDecline, FFailureCode>;

/** A charge (an answer or an event's) as the service's outcome; a failed charge without a code is a card decline. */
export function outcomeOfCharge(
  charge: Pick<FCharge, "id" | "status" | "amount_captured" | "failure_code" | "next_action" | "payment_method_details">,
): ProviderOutcome {
  const providerReference = charge.id;
  if (charge.status === "succeeded")
    return { kind: "succeeded", providerReference, processedAmountMinor: BigInt(charge.amount_captured), ...savedCardOf(charge) };
  if (charge.status === "requires_action")
    return { kind: "pending", providerReference, ...(charge.next_action ? { redirectUrl: charge.next_action.url } : {}) };
  if (charge.failure_code === "processing_error")
    return { kind: "soft_failed", resolution: "provider_unavailable", providerReference, message: "Provider F could not process the charge" };
  const failureCode = charge.failure_code ?? F_DECLINES.issuer_decline;
  const resolution = declineResolution<FFailureCode>(F_DECLINES, (code) => code === failureCode);
  return { kind: "declined", resolution, providerReference, message: `Provider F declined the charge (${charge.failure_code ?? "no code"})` };
}

/** F's refund statuses and failure codes: the sandbox words its decisions with them, the adapter reads them back. */
export const F_REFUND_STATUS: Readonly<Record<SandboxRefundStatus, FRefund["status"]>> = { succeeded: "succeeded", pending: "pending", declined: "failed" };
export const F_REFUND_DECLINES: Readonly<Record<SandboxRefundDecline, { failure_code: string; failure_message: string }>> = {
  declined: { failure_code: "refund_declined", failure_message: "The card issuer declined the refund." },
  exceeds: { failure_code: "amount_exceeds_captured", failure_message: "The refunds of this charge would exceed its amount_captured." },
};

/** A refund object as the service's outcome; a failed refund is declined (nothing refunded). */
export function refundOutcomeOf(refund: Pick<FRefund, "id" | "status" | "failure_code" | "failure_message">): RefundOutcome {
  const providerReference = refund.id;
  switch (refund.status) {
    case "succeeded":
      return { kind: "succeeded", providerReference };
    case "pending":
      return { kind: "pending", providerReference };
    case "failed":
      return {
        kind: "declined",
        providerReference,
        message: `Provider F declined the refund (${refund.failure_code ?? "no code"}${refund.failure_message ? `: ${refund.failure_message}` : ""})`,
      };
  }
}

/** F's `payment_method_details`, when the charge kept its card. */
function savedCardOf(charge: Pick<FCharge, "payment_method_details">): { savedCard?: SavedCard } {
  const details = charge.payment_method_details;
  if (details?.object !== "saved_card" || typeof details.card_token !== "string") return {};
  return {
    savedCard: {
      token: details.card_token,
      brand: details.brand ?? null,
      lastFour: String(details.last4),
      expiryMonth: Number(details.exp_month),
      expiryYear: Number(details.exp_year),
    },
  };
}

/**
 * F's dispute words (../wire.ts): its statuses and reasons for the service's dispute statuses and
 * reasons, and its refusals. The sandbox words its disputes with them, the adapter and the
 * callbacks read them back (a reason not in the table is `other`).
 */
export const F_DISPUTE_STATUS: Readonly<Record<DisputeStatus, FDispute["status"]>> = {
  needs_response: "needs_response",
  under_review: "under_review",
  won: "won",
  lost: "lost",
  accepted: "accepted",
};
export const F_DISPUTE_REASONS: Readonly<Record<DisputeReason, string>> = {
  fraudulent: "fraudulent",
  not_received: "product_not_received",
  not_as_described: "product_unacceptable",
  duplicate: "duplicate",
  credit_not_processed: "credit_not_processed",
  other: "general",
};
export const F_DISPUTE_REFUSALS: Readonly<Record<DisputeRefusal, FErrorCode>> = { deadline_passed: "evidence_past_due", closed: "dispute_not_open" };

/** A dispute (an answer or an event) as the service's report; F's currencies are lower case. */
export function disputeReportOf(dispute: FDispute): DisputeReport {
  return {
    disputeReference: dispute.id,
    paymentReference: dispute.charge,
    ...(dispute.charge_reference ? { paymentKey: dispute.charge_reference } : {}),
    amountMinor: BigInt(dispute.amount),
    currency: dispute.currency.toUpperCase(),
    reason: readBack(F_DISPUTE_REASONS, dispute.reason, "other"),
    providerReason: dispute.reason,
    status: readBack(F_DISPUTE_STATUS, dispute.status, "needs_response"),
    evidenceDueBy: new Date(dispute.evidence_details.due_by * 1000),
  };
}

/** F's refusal code of a dispute request, as the service's. */
export const disputeRefusalOf = (code: string | undefined) => refusalOf(F_DISPUTE_REFUSALS, (refusal) => refusal === code);

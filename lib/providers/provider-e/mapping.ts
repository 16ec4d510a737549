import "server-only";
import { toMinorUnits } from "@/lib/money";
import type { DisputeReason, DisputeStatus } from "@/lib/db/enums";
import type { CaptureOutcome, DisputeReport, ProviderOutcome, RefundOutcome, VoidOutcome } from "@/lib/providers/kit/adapter";
import type { SandboxAuthorizationDecline } from "@/lib/sandbox/authorizations";
import type { SandboxRefundDecline, SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { readBack, refusalOf, type DisputeRefusal } from "../server/dispute-answers";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import type { ECancel, ECapture, EDispute, EErrorCode, EPayment, ERefund } from "./wire";

/**
 * What Provider E's words mean for the invoice, read by the adapter and the callbacks and, the
 * other way round, by the sandbox when it refuses a test card.
 */

/** E words its refusals. */
export const E_REFUSALS = {
  issuer_decline: "Refused",
  insufficient_funds: "Not enough balance",
  invalid_cvv: "CVC Declined",
  auth_3ds_failed: "3D Secure failed",
} as const satisfies Record<CodedDecline, string>;

/** A payment (an answer or a notification's) as the service's outcome. */
export function outcomeOfPayment(
  payment: Pick<
    EPayment,
    "paymentId" | "resultCode" | "refusalReason" | "capturedAmount" | "action" | "captureMode" | "authorisedAmount" | "authorisationExpiresAt"
  >,
): ProviderOutcome {
  const providerReference = payment.paymentId;
  switch (payment.resultCode) {
    case "Authorised":
    case "PartiallyAuthorised":
      // Authorize now, capture later: reserved, nothing taken yet.
      if (payment.captureMode === "manual" && payment.authorisedAmount) {
        return {
          kind: "succeeded",
          providerReference,
          processedAmountMinor: toMinorUnits(payment.authorisedAmount.value, payment.authorisedAmount.currency),
          authorized: payment.authorisationExpiresAt ? { until: new Date(payment.authorisationExpiresAt) } : {},
        };
      }
      return { kind: "succeeded", providerReference, processedAmountMinor: toMinorUnits(payment.capturedAmount.value, payment.capturedAmount.currency) };
    case "RedirectShopper":
      return { kind: "pending", providerReference, ...(payment.action ? { redirectUrl: payment.action.url } : {}) };
    case "Refused": {
      const resolution = declineResolution<string>(E_REFUSALS, (words) => words === payment.refusalReason);
      return { kind: "declined", resolution, providerReference, message: `Provider E refused the payment: ${payment.refusalReason ?? "no reason given"}` };
    }
    default:
      return { kind: "soft_failed", resolution: "provider_unavailable", providerReference, message: "Provider E could not process the payment" };
  }
}

/** E's refund result codes and refusal reasons: the sandbox words its decisions with them, the adapter reads them back. */
export const E_REFUND_RESULT: Readonly<Record<SandboxRefundStatus, ERefund["resultCode"]>> = {
  succeeded: "Refunded",
  pending: "Received",
  declined: "Refused",
};
export const E_REFUND_REFUSALS: Readonly<Record<SandboxRefundDecline, string>> = {
  declined: "Refund Declined",
  exceeds: "Amount Exceeds Captured",
};

/** A refund (an answer or a status) as the service's outcome. */
export function refundOutcomeOf(refund: Pick<ERefund, "refundId" | "resultCode" | "refusalReason">): RefundOutcome {
  const providerReference = refund.refundId;
  switch (refund.resultCode) {
    case "Refunded":
      return { kind: "succeeded", providerReference };
    case "Received":
      return { kind: "pending", providerReference };
    case "Refused":
      return { kind: "declined", providerReference, message: `Provider E refused the refund: ${refund.refusalReason ?? "no reason given"}` };
  }
}

/** E's capture and cancel refusals in words: the sandbox words its decisions with them, the adapter reads them back. */
export const E_AUTHORIZATION_REFUSALS: Readonly<Record<SandboxAuthorizationDecline, string>> = {
  expired: "Authorisation expired",
  already_captured: "Already captured",
  voided: "Authorisation cancelled",
  exceeds: "Amount exceeds authorised",
  partial_not_allowed: "Partial capture not supported",
};

/** A capture answer as the service's outcome. */
export function captureOutcomeOf(capture: ECapture): CaptureOutcome {
  if (capture.status === "Captured")
    return { kind: "captured", providerReference: capture.captureId, capturedMinor: toMinorUnits(capture.amount.value, capture.amount.currency) };
  return { kind: "declined", providerReference: capture.captureId, message: `Provider E refused the capture: ${capture.refusalReason ?? "no reason given"}` };
}

/** A cancel answer as the service's outcome. */
export function voidOutcomeOf(cancel: ECancel): VoidOutcome {
  if (cancel.status === "Cancelled") return { kind: "voided", providerReference: cancel.cancelId };
  return { kind: "declined", message: `Provider E refused the cancel: ${cancel.refusalReason ?? "no reason given"}` };
}

/**
 * E's dispute words (../wire.ts): its statuses and reason codes for the service's dispute statuses
 * and reasons, and its refusals. The sandbox words its disputes with them, the adapter and the
 * callbacks read them back (a reason code not in the table is `other`).
 */
export const E_DISPUTE_STATUS: Readonly<Record<DisputeStatus, EDispute["status"]>> = {
  needs_response: "Undefended",
  under_review: "Pending",
  won: "Won",
  lost: "Lost",
  accepted: "Accepted",
};
export const E_DISPUTE_REASONS: Readonly<Record<DisputeReason, string>> = {
  fraudulent: "Fraud",
  not_received: "ProductNotReceived",
  not_as_described: "ProductNotAsDescribed",
  duplicate: "Duplicate",
  credit_not_processed: "CreditNotProcessed",
  other: "General",
};
export const E_DISPUTE_REFUSALS: Readonly<Record<DisputeRefusal, EErrorCode>> = { deadline_passed: "defense_period_ended", closed: "dispute_not_open" };

/** A dispute (an answer or a notification) as the service's report. */
export function disputeReportOf(dispute: EDispute): DisputeReport {
  return {
    disputeReference: dispute.disputeId,
    paymentReference: dispute.paymentId,
    ...(dispute.paymentMerchantReference ? { paymentKey: dispute.paymentMerchantReference } : {}),
    amountMinor: toMinorUnits(dispute.amount.value, dispute.amount.currency),
    currency: dispute.amount.currency,
    reason: readBack(E_DISPUTE_REASONS, dispute.reasonCode, "other"),
    providerReason: dispute.reasonCode,
    status: readBack(E_DISPUTE_STATUS, dispute.status, "needs_response"),
    evidenceDueBy: new Date(dispute.defenseDueDate),
  };
}

/** E's refusal code of a dispute request, as the service's. */
export const disputeRefusalOf = (code: string | undefined) => refusalOf(E_DISPUTE_REFUSALS, (refusal) => refusal === code);

import "server-only";
import type { DisputeReason, DisputeStatus } from "@/lib/db/enums";
import type { CaptureOutcome, DisputeReport, ProviderOutcome, RefundOutcome, SavedCard, VoidOutcome } from "@/lib/providers/kit/adapter";
import type { SandboxAuthorizationDecline } from "@/lib/sandbox/authorizations";
import type { SandboxRefundDecline, SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { readBack, refusalOf, type DisputeRefusal } from "../server/dispute-answers";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import type { CCancellation, CCapture, CDispute, CReadOrder, CRefund } from "./wire";

/**
 * What Provider C's words mean for the invoice, read by the adapter and the callbacks and, the
 * other way round, by the sandbox when it words a test card's rejection.
 */

export const C_REJECTIONS: Readonly<Record<CodedDecline, string>> = {
  issuer_decline: "ISSUER_DECLINED",
  insufficient_funds: "INSUFFICIENT_FUNDS",
  invalid_cvv: "CVC_INVALID",
  auth_3ds_failed: "THREE_DS_FAILED",
};

/** An order (an answer or a notification's) as the service's outcome. */
export function outcomeOf(order: CReadOrder): ProviderOutcome {
  const providerReference = order.id;
  switch (order.state) {
    case "AUTHORIZED":
      // Authorize now, capture later: reserved, nothing taken yet.
      return {
        kind: "succeeded",
        providerReference,
        processedAmountMinor: BigInt(order.authorized_minor ?? 0),
        authorized: order.authorization_expires_at ? { until: new Date(order.authorization_expires_at) } : {},
      };
    case "PAID":
    case "PARTIALLY_PAID":
      return { kind: "succeeded", providerReference, processedAmountMinor: BigInt(order.paid_minor ?? 0), ...savedCardOf(order) };
    case "AWAITING_3DS":
    case "PROCESSING":
      return { kind: "pending", providerReference, ...(order.challenge_url ? { redirectUrl: order.challenge_url } : {}) };
    case "REJECTED":
      return {
        kind: "declined",
        resolution: declineResolution(C_REJECTIONS, (rejection) => rejection === order.rejection_reason),
        providerReference,
        message: `Rejected by Provider C (${order.rejection_reason ?? "no reason"}).`,
      };
  }
}

/** C's refund states and rejection reasons: the sandbox words its decisions with them, the adapter reads them back. */
export const C_REFUND_STATE: Readonly<Record<SandboxRefundStatus, CRefund["state"]>> = { succeeded: "REFUNDED", pending: "PROCESSING", declined: "REJECTED" };
export const C_REFUND_REJECTIONS: Readonly<Record<SandboxRefundDecline, string>> = {
  declined: "REFUND_DECLINED",
  exceeds: "EXCEEDS_PAID_AMOUNT",
};

/** A refund answer as the service's outcome. */
export function refundOutcomeOf(refund: CRefund): RefundOutcome {
  const providerReference = refund.id;
  switch (refund.state) {
    case "REFUNDED":
      return { kind: "succeeded", providerReference };
    case "PROCESSING":
      return { kind: "pending", providerReference };
    case "REJECTED":
      return { kind: "declined", providerReference, message: `Refund rejected by Provider C (${refund.rejection_reason ?? "no reason"}).` };
  }
}

/** C's `stored_card`, when the order kept the card. */
function savedCardOf(order: CReadOrder): { savedCard?: SavedCard } {
  const stored = order.stored_card;
  if (!stored) return {};
  const [year, month] = stored.expiry.split("-");
  return {
    savedCard: {
      token: stored.card_token,
      brand: stored.scheme ?? null,
      lastFour: stored.masked_pan.slice(-4),
      expiryMonth: Number(month),
      expiryYear: Number(year),
    },
  };
}

/** C's capture and cancellation rejections: the sandbox words its decisions with them, the adapter reads them back. */
export const C_AUTHORIZATION_REJECTIONS: Readonly<Record<SandboxAuthorizationDecline, string>> = {
  expired: "AUTHORIZATION_EXPIRED",
  already_captured: "ALREADY_CAPTURED",
  voided: "AUTHORIZATION_CANCELLED",
  exceeds: "EXCEEDS_AUTHORIZED_AMOUNT",
  partial_not_allowed: "PARTIAL_CAPTURE_NOT_SUPPORTED",
};

/** A capture answer as the service's outcome. */
export function captureOutcomeOf(capture: CCapture): CaptureOutcome {
  if (capture.state === "CAPTURED") return { kind: "captured", providerReference: capture.id, capturedMinor: BigInt(capture.amount_minor) };
  return { kind: "declined", providerReference: capture.id, message: `Capture rejected by Provider C (${capture.rejection_reason ?? "no reason"}).` };
}

/** A cancellation answer as the service's outcome. */
export function voidOutcomeOf(cancellation: CCancellation): VoidOutcome {
  if (cancellation.state === "CANCELLED") return { kind: "voided", providerReference: cancellation.id };
  return { kind: "declined", message: `Cancellation rejected by Provider C (${cancellation.rejection_reason ?? "no reason"}).` };
}

/**
 * C's dispute words (../wire.ts): its states and reasons for the service's dispute statuses and
 * reasons, and its refusals. The sandbox words its disputes with them, the adapter and the
 * callbacks read them back (a reason not in the table is `other`).
 */
export const C_DISPUTE_STATE: Readonly<Record<DisputeStatus, CDispute["state"]>> = {
  needs_response: "NEEDS_RESPONSE",
  under_review: "UNDER_REVIEW",
  won: "WON",
  lost: "LOST",
  accepted: "ACCEPTED",
};
export const C_DISPUTE_REASONS: Readonly<Record<DisputeReason, string>> = {
  fraudulent: "UNAUTHORIZED_PAYMENT",
  not_received: "GOODS_NOT_RECEIVED",
  not_as_described: "GOODS_NOT_AS_DESCRIBED",
  duplicate: "DUPLICATE_PAYMENT",
  credit_not_processed: "REFUND_NOT_RECEIVED",
  other: "OTHER",
};
export const C_DISPUTE_REFUSALS: Readonly<Record<DisputeRefusal, { code: string; message: string }>> = {
  deadline_passed: { code: "response_period_over", message: "The dispute's respond_by has passed." },
  closed: { code: "dispute_not_open", message: "The dispute takes no response now." },
};

/** A dispute (an answer or a notification) as the service's report. */
export function disputeReportOf(dispute: CDispute): DisputeReport {
  return {
    disputeReference: dispute.id,
    paymentReference: dispute.order_id,
    ...(dispute.shop_order_id ? { paymentKey: dispute.shop_order_id } : {}),
    amountMinor: BigInt(dispute.amount_minor),
    currency: dispute.currency_code,
    reason: readBack(C_DISPUTE_REASONS, dispute.reason, "other"),
    providerReason: dispute.reason,
    status: readBack(C_DISPUTE_STATE, dispute.state, "needs_response"),
    evidenceDueBy: new Date(dispute.respond_by),
  };
}

/** C's refusal code of a dispute request, as the service's. */
export const disputeRefusalOf = (code: string | undefined) => refusalOf(C_DISPUTE_REFUSALS, (refusal) => refusal.code === code);

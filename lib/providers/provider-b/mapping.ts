import "server-only";
import { toMinorUnits } from "@/lib/money";
import type { DisputeReason, DisputeStatus } from "@/lib/db/enums";
import type { CaptureOutcome, DisputeReport, ProviderOutcome, RefundOutcome, SavedCard, VoidOutcome } from "@/lib/providers/kit/adapter";
import type { SandboxAuthorizationDecline } from "@/lib/sandbox/authorizations";
import type { SandboxRefundDecline, SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { readBack, refusalOf, type DisputeRefusal } from "../server/dispute-answers";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import type { BCapture, BCharge, BDispute, BRefund, BVoid } from "./wire";

/**
 * What Provider B's words mean for the invoice, read by the adapter and the callbacks and, the
 * other way round, by the sandbox when it words a test card's decline.
 */

export const B_DECLINES: Readonly<Record<CodedDecline, { error_code: string; error_text: string }>> = {
  issuer_decline: { error_code: "do_not_honor", error_text: "The issuer declined the card." },
  insufficient_funds: { error_code: "nsf", error_text: "Not sufficient funds." },
  invalid_cvv: { error_code: "cvc_mismatch", error_text: "The CVC does not match." },
  auth_3ds_failed: { error_code: "3ds_failed", error_text: "3-D Secure authentication failed." },
};

/** A charge (an answer or a notification) as the service's outcome. */
export function outcomeOf(charge: BCharge): ProviderOutcome {
  const providerReference = charge.txn;
  switch (charge.result) {
    case "auth":
      return {
        kind: "succeeded",
        providerReference,
        processedAmountMinor: toMinorUnits(charge.authorized_sum ?? "0", charge.cur),
        authorized: charge.auth_until ? { until: new Date(charge.auth_until) } : {},
      };
    case "ok":
    case "partial":
      return { kind: "succeeded", providerReference, processedAmountMinor: toMinorUnits(charge.captured_sum ?? "0", charge.cur), ...savedCardOf(charge) };
    case "3ds":
    case "wait":
      return { kind: "pending", providerReference, ...(charge.acs_url ? { redirectUrl: charge.acs_url } : {}) };
    case "fail":
      return {
        kind: "declined",
        resolution: declineResolution(B_DECLINES, (decline) => decline.error_code === charge.error_code),
        providerReference,
        message: charge.error_text ?? `Declined by Provider B (${charge.error_code ?? "no code"}).`,
      };
  }
}

/** B's refund results and decline codes: the sandbox words its decisions with them, the adapter reads them back. */
export const B_REFUND_RESULT: Readonly<Record<SandboxRefundStatus, BRefund["result"]>> = { succeeded: "ok", pending: "wait", declined: "fail" };
export const B_REFUND_DECLINES: Readonly<Record<SandboxRefundDecline, { error_code: string; error_text: string }>> = {
  declined: { error_code: "refund_declined", error_text: "The issuer refused the refund." },
  exceeds: { error_code: "refund_exceeds_capture", error_text: "The refunds would exceed the captured sum." },
};

/** A refund answer as the service's outcome. */
export function refundOutcomeOf(refund: BRefund): RefundOutcome {
  const providerReference = refund.refund_txn;
  switch (refund.result) {
    case "ok":
      return { kind: "succeeded", providerReference };
    case "wait":
      return { kind: "pending", providerReference };
    case "fail":
      return { kind: "declined", providerReference, message: refund.error_text ?? `Declined by Provider B (${refund.error_code ?? "no code"}).` };
  }
}

/** B's capture and void refusals: the sandbox words its decisions with them, the adapter reads them back. */
export const B_AUTHORIZATION_DECLINES: Readonly<Record<SandboxAuthorizationDecline, { error_code: string; error_text: string }>> = {
  expired: { error_code: "auth_expired", error_text: "The authorization has lapsed." },
  already_captured: { error_code: "auth_captured", error_text: "The authorization was already captured." },
  voided: { error_code: "auth_voided", error_text: "The authorization was voided." },
  exceeds: { error_code: "capture_exceeds_auth", error_text: "The capture is more than was authorized." },
  partial_not_allowed: { error_code: "partial_capture_refused", error_text: "Only the whole authorized sum can be captured." },
};

/** A capture answer as the service's outcome. */
export function captureOutcomeOf(capture: BCapture): CaptureOutcome {
  if (capture.result === "ok") return { kind: "captured", providerReference: capture.capture_txn, capturedMinor: toMinorUnits(capture.sum, capture.cur) };
  return {
    kind: "declined",
    providerReference: capture.capture_txn,
    message: capture.error_text ?? `Declined by Provider B (${capture.error_code ?? "no code"}).`,
  };
}

/** A void answer as the service's outcome. */
export function voidOutcomeOf(voided: BVoid): VoidOutcome {
  if (voided.result === "ok") return { kind: "voided", providerReference: voided.void_txn };
  return { kind: "declined", message: voided.error_text ?? `Declined by Provider B (${voided.error_code ?? "no code"}).` };
}

/** B's saved card (`card_token`, `card_last4`, `card_exp` as MM/YY, `card_brand`), when the charge kept one. */
function savedCardOf(charge: BCharge): { savedCard?: SavedCard } {
  const exp = /^(\d{2})\/(\d{2})$/.exec(charge.card_exp ?? "");
  if (!charge.card_token || !charge.card_last4 || !exp) return {};
  return {
    savedCard: {
      token: charge.card_token,
      brand: charge.card_brand ?? null,
      lastFour: charge.card_last4,
      expiryMonth: Number(exp[1]),
      expiryYear: 2000 + Number(exp[2]),
    },
  };
}

/**
 * B's dispute words (../wire.ts): its results and reason codes for the service's dispute statuses and
 * reasons, and its refusals. The sandbox words its disputes with them, the adapter and the callbacks
 * read them back (a reason code not in the table is `other`).
 */
export const B_DISPUTE_RESULT: Readonly<Record<DisputeStatus, BDispute["result"]>> = {
  needs_response: "open",
  under_review: "review",
  won: "won",
  lost: "lost",
  accepted: "accepted",
};
export const B_DISPUTE_REASONS: Readonly<Record<DisputeReason, string>> = {
  fraudulent: "fraud",
  not_received: "goods_not_received",
  not_as_described: "not_as_described",
  duplicate: "duplicate_charge",
  credit_not_processed: "credit_not_processed",
  other: "general",
};
export const B_DISPUTE_REFUSALS: Readonly<Record<DisputeRefusal, { error_code: string; error_text: string }>> = {
  deadline_passed: { error_code: "respond_by_passed", error_text: "The dispute's respond_by has passed." },
  closed: { error_code: "dispute_closed", error_text: "The dispute takes no response now." },
};

/** A dispute (an answer or a notification) as the service's report. */
export function disputeReportOf(dispute: BDispute): DisputeReport {
  return {
    disputeReference: dispute.dispute_txn,
    paymentReference: dispute.txn,
    ...(dispute.order_ref ? { paymentKey: dispute.order_ref } : {}),
    amountMinor: toMinorUnits(dispute.sum, dispute.cur),
    currency: dispute.cur,
    reason: readBack(B_DISPUTE_REASONS, dispute.reason_code, "other"),
    providerReason: dispute.reason_code,
    status: readBack(B_DISPUTE_RESULT, dispute.result, "needs_response"),
    evidenceDueBy: new Date(dispute.respond_by),
  };
}

/** B's refusal code of a dispute request, as the service's. */
export const disputeRefusalOf = (code: string | undefined) => refusalOf(B_DISPUTE_REFUSALS, (refusal) => refusal.error_code === code);

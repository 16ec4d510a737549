import "server-only";
import type { ProviderOutcome, RefundOutcome, SavedCard } from "@/lib/providers/kit/adapter";
import type { SandboxRefundDecline, SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import type { FCharge, FFailureCode, FRefund } from "./wire";

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

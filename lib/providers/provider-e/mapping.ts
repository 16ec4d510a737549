import "server-only";
import { toMinorUnits } from "@/lib/money";
import type { ProviderOutcome, RefundOutcome } from "@/lib/providers/kit/adapter";
import type { SandboxRefundDecline, SandboxRefundStatus } from "@/lib/sandbox/refunds";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import type { EPayment, ERefund } from "./wire";

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
export function outcomeOfPayment(payment: Pick<EPayment, "paymentId" | "resultCode" | "refusalReason" | "capturedAmount" | "action">): ProviderOutcome {
  const providerReference = payment.paymentId;
  switch (payment.resultCode) {
    case "Authorised":
    case "PartiallyAuthorised":
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

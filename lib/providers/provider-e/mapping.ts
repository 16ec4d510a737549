import "server-only";
import { toMinorUnits } from "@/lib/money";
import type { ProviderOutcome } from "@/lib/providers/kit/adapter";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import type { EPayment } from "./wire";

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

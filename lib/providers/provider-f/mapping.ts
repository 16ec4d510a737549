import "server-only";
import type { ProviderOutcome } from "@/lib/providers/kit/adapter";
import { declineResolution, type CodedDecline } from "../server/provider-answers";
import type { FCharge, FFailureCode } from "./wire";

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
export function outcomeOfCharge(charge: Pick<FCharge, "id" | "status" | "amount_captured" | "failure_code" | "next_action">): ProviderOutcome {
  const providerReference = charge.id;
  if (charge.status === "succeeded") return { kind: "succeeded", providerReference, processedAmountMinor: BigInt(charge.amount_captured) };
  if (charge.status === "requires_action") return { kind: "pending", providerReference, ...(charge.next_action ? { redirectUrl: charge.next_action.url } : {}) };
  if (charge.failure_code === "processing_error") return { kind: "soft_failed", resolution: "provider_unavailable", providerReference, message: "Provider F could not process the charge" };
  const failureCode = charge.failure_code ?? F_DECLINES.issuer_decline;
  const resolution = declineResolution<FFailureCode>(F_DECLINES, (code) => code === failureCode);
  return { kind: "declined", resolution, providerReference, message: `Provider F declined the charge (${charge.failure_code ?? "no code"})` };
}

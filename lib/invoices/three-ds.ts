import type { ThreeDsResult } from "@/lib/db/enums";
import type { ProviderOutcome } from "@/lib/providers/kit/adapter";

/**
 * What an attempt's 3-D Secure step came to, from the outcomes the provider gave it one after the
 * other. The providers tell the service only that they want the customer on a challenge page (a
 * pending answer with a redirect) and then the payment's outcome, so that is what this reads:
 * - a redirect asks for the step: `required` until the outcome arrives;
 * - a decline for `auth_3ds_failed` is a failed step, with or without a challenge seen before;
 * - any other settled outcome after the challenge is a passed step: the providers only go on to
 *   authorise (and then succeed or decline for funds, say) once the customer passed;
 * - a success without a challenge after the service asked for the step (`requested`: a routing rule
 *   requires 3-D Secure) is a frictionless pass: the provider, asked, authenticated without the customer.
 * Pure; kept with the attempt in the same write as the outcome (recordOutcome).
 */
export function threeDsAfter(
  previous: ThreeDsResult | null,
  outcome: Pick<ProviderOutcome, "kind"> & { redirectUrl?: string; resolution?: string },
): ThreeDsResult | null {
  if (outcome.kind === "pending") return outcome.redirectUrl ? (previous === "passed" || previous === "failed" ? previous : "required") : previous;
  if (outcome.kind === "declined" && outcome.resolution === "auth_3ds_failed") return "failed";
  if (previous === "required" && (outcome.kind === "succeeded" || outcome.kind === "declined")) return "passed";
  if (previous === "requested" && outcome.kind === "succeeded") return "frictionless";
  return previous;
}

/** Whether a payment's routing rule requires 3-D Secure (lib/routing/decide.ts), so Pay asks the provider for it. */
export function asksForThreeDs(invoice: { routingDetail: { three_ds?: "required" } | null }): boolean {
  return invoice.routingDetail?.three_ds === "required";
}

export type ThreeDsSummary = {
  result: ThreeDsResult | "not_requested";
  /** The result in words. */
  label: string;
  /** Whether fraud chargebacks move from the merchant to the card's issuer. */
  liabilityShift: boolean;
  /** The liability shift in words. */
  liabilityLabel: string;
};

/**
 * The 3-D Secure result and its liability shift as the invoice page and the export say them: only
 * a passed authentication moves fraud chargebacks to the issuer; a failed, unfinished or absent
 * step leaves them with the merchant.
 */
export function summarizeThreeDs(result: ThreeDsResult | null): ThreeDsSummary {
  switch (result) {
    case "passed":
      return {
        result,
        label: "Passed: the customer completed the challenge",
        liabilityShift: true,
        liabilityLabel: "Yes: fraud chargebacks go to the card issuer",
      };
    case "frictionless":
      return {
        result,
        label: "Passed without a challenge (frictionless)",
        liabilityShift: true,
        liabilityLabel: "Yes: fraud chargebacks go to the card issuer",
      };
    case "requested":
      return {
        result,
        label: "Requested by your routing rule; the payment ended before authentication",
        liabilityShift: false,
        liabilityLabel: "No: stays with you",
      };
    case "failed":
      return { result, label: "Failed: the customer did not pass the challenge", liabilityShift: false, liabilityLabel: "No: stays with you" };
    case "required":
      return { result, label: "Waiting for the customer to complete the challenge", liabilityShift: false, liabilityLabel: "No: not authenticated yet" };
    default:
      return { result: "not_requested", label: "Not requested by the provider", liabilityShift: false, liabilityLabel: "No: stays with you" };
  }
}

/**
 * The sandboxes' test refunds: the refund amount's cents decide what every provider's sandbox does
 * with it, as the test cards decide a payment. One table for the sandboxes, the hosted page's test
 * panel and the docs. Free of secrets: pages show it.
 */

export type RefundDecision = "succeed" | "pending" | "decline" | "unavailable";

export type TestRefund = {
  /** The cents that trigger it (the refund amount ends in .31, .32, …). */
  cents: string;
  decision: RefundDecision;
  label: string;
  outcome: string;
};

export const TEST_REFUNDS: readonly TestRefund[] = [
  { cents: "any other", decision: "succeed", label: "Succeeds", outcome: "The refund succeeds at once." },
  {
    cents: "31",
    decision: "pending",
    label: "Pending, settles later",
    outcome: "The provider takes it as pending; it succeeds a few seconds later, and the provider's callback (or a status request that comes first) says so.",
  },
  { cents: "32", decision: "decline", label: "Declined", outcome: "The provider declines the refund; nothing is refunded." },
  { cents: "33", decision: "unavailable", label: "Provider unavailable", outcome: "The provider answers 503 and records nothing." },
];

/** What a sandbox does with a refund of `amountText` (decimal text, as the refund holds it). */
export function decideRefund(amountText: string): RefundDecision {
  const cents = /\.(\d{2})0*$/.exec(amountText.trim())?.[1];
  return TEST_REFUNDS.find((trigger) => trigger.cents === cents)?.decision ?? "succeed";
}

/**
 * The sandboxes' test cards: one table shared by every provider's sandbox and the
 * hosted page's "Test cards" panel, so the outcome a customer is promised is the one they get.
 * Free of secrets: the hosted page shows it.
 */

export type DeclineReason = "issuer_decline" | "insufficient_funds" | "invalid_cvv";

export type CardDecision =
  | { kind: "approve"; capturedMinor: bigint }
  | { kind: "partial"; capturedMinor: bigint }
  | { kind: "decline"; reason: DeclineReason }
  | { kind: "unavailable" }
  | { kind: "three_ds" };

export type TestCard = {
  /** Digits only. */
  number: string;
  label: string;
  /** What the sandbox does with it, in plain words. */
  outcome: string;
};

export const TEST_CARDS: readonly TestCard[] = [
  { number: "4242424242424242", label: "Succeeds", outcome: "The payment succeeds." },
  { number: "4000000000000002", label: "Declined", outcome: "The issuer declines it (issuer_decline)." },
  { number: "4000000000009995", label: "Insufficient funds", outcome: "Declined for lack of funds (insufficient_funds)." },
  {
    number: "4000000000000119",
    label: "Provider unavailable",
    outcome: "A soft failure (provider_unavailable): the next connection is tried.",
  },
  { number: "4000000000003220", label: "3-D Secure", outcome: "Asks for a 3-D Secure step that you pass or fail." },
  {
    number: "4000000000003063",
    label: "3-D Secure frictionless",
    outcome: "When a routing rule requires 3-D Secure, passes it without a challenge; otherwise it succeeds like any card.",
  },
  {
    number: "4000000000000259",
    label: "Disputed: fraudulent",
    outcome: "The payment succeeds; once captured, the customer disputes it as fraudulent.",
  },
  {
    number: "4000000000002685",
    label: "Disputed: not received",
    outcome: "The payment succeeds; once captured, the customer disputes it as not received.",
  },
];

/**
 * Cards whose payment succeeds and is then disputed by the customer, for the reason given, a few
 * seconds after capture (lib/sandbox/disputes.ts). Only their last four digits count.
 */
const DISPUTE_CARDS: Readonly<Record<string, "fraudulent" | "not_received">> = { "0259": "fraudulent", "2685": "not_received" };

/** The test phrase: a test dispute's evidence with it in any text field wins; any other evidence loses (lib/sandbox/disputes.ts). */
export const WINNING_EVIDENCE_PHRASE = "winning_evidence";

/**
 * Test disputes in plain words, for the API description and the docs: the dispute cards, the
 * winning phrase and the three settings of the sandbox's timing.
 */
export const DISPUTE_TEST_NOTE =
  "Test mode: a payment paid with 4000 0000 0000 0259 (or 4000 0000 0000 2685) succeeds, and the sandbox opens a fraudulent " +
  "(not_received) dispute of it SANDBOX_DISPUTE_OPENS_AFTER_SECONDS after capture (default 10), evidence due " +
  "SANDBOX_DISPUTE_EVIDENCE_SECONDS later (default 7 days). Submitted evidence is decided SANDBOX_DISPUTE_DECIDES_AFTER_SECONDS " +
  `later (default 10): won when a text field contains ${WINNING_EVIDENCE_PHRASE}, lost otherwise.`;

/** Why the customer will dispute a payment made with this card, or undefined for a card that is never disputed. */
export function disputeReasonOfCard(cardNumber: string): "fraudulent" | "not_received" | undefined {
  return DISPUTE_CARDS[lastFour(cardNumber)];
}

/** Any card whose CVC is this is refused with invalid_cvv, so every decline reason can be reached. */
export const INVALID_CVC = "000";

/** Spec 4.2: amounts over 10,000.00 are paid out in parts when split_mode is on. */
const SPLIT_THRESHOLD_MINOR = 1_000_000n;
const SPLIT_PARTS = 3n;
const PARTIAL_PERCENT = 75n;

export type CardDecisionInput = {
  /** Full, or masked like the spec's payout examples (400000******0002): only the last four count. */
  cardNumber: string;
  /** The amount as the invoice holds it ("10.77"). */
  amountText: string;
  amountMinor: bigint;
  allowPartially: boolean;
  cvc?: string;
  /** The payment asked for 3-D Secure (a routing rule's require_three_ds): every card but the frictionless one is challenged. */
  threeDsRequested?: boolean;
};

/** The card that, asked for 3-D Secure, passes it without a challenge (frictionless). */
const FRICTIONLESS_CARD_LAST_FOUR = "3063";

/** 3-D Secure asked for, in plain words, for the API description and the docs. */
export const THREE_DS_TEST_NOTE =
  "Test mode: when a routing rule requires 3-D Secure (require_three_ds), the sandbox sends every card to its challenge page " +
  "except 4000 0000 0000 3063, which passes without a challenge (frictionless), and 4000 0000 0000 0119 (provider unavailable).";

/** "4242 4242 4242 4242": how the page shows a card number it offers. */
export function formatCardNumber(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

function lastFour(cardNumber: string): string {
  return cardNumber.replace(/\D/g, "").slice(-4);
}

/** An amount whose cents are .77 (trailing zeros of longer fractions ignored) is captured partly. */
function isPartialAmount(amountText: string): boolean {
  return /\.770*$/.test(amountText.trim());
}

/**
 * What the sandbox does with a card. The last four digits decide (so masked payout numbers work
 * too): 0002 issuer_decline, 9995 insufficient_funds, 0119 unavailable, 3220 three_ds, anything
 * else approves (the dispute cards 0259 and 2685 too: the dispute comes after capture). An approved amount ending in .77 is captured at 75 % when the invoice allows
 * partial processing, and refused as insufficient_funds when it does not.
 * Asked for 3-D Secure (`threeDsRequested`), the sandbox honours it: 0119 is still unavailable, 3063
 * passes without a challenge (then the amount rule), and every other card is challenged (three_ds).
 */
export function decideCard(input: CardDecisionInput): CardDecision {
  const last = lastFour(input.cardNumber);
  if (input.threeDsRequested && last !== "0119") return last === FRICTIONLESS_CARD_LAST_FOUR ? decideAmount(input) : { kind: "three_ds" };
  switch (last) {
    case "0002":
      return { kind: "decline", reason: "issuer_decline" };
    case "9995":
      return { kind: "decline", reason: "insufficient_funds" };
    case "0119":
      return { kind: "unavailable" };
    case "3220":
      return { kind: "three_ds" };
  }
  if (input.cvc === INVALID_CVC) return { kind: "decline", reason: "invalid_cvv" };
  return decideAmount(input);
}

/** The amount rule alone: used again after a passed 3-D Secure step. */
export function decideAmount(input: Pick<CardDecisionInput, "amountText" | "amountMinor" | "allowPartially">): CardDecision {
  if (!isPartialAmount(input.amountText)) return { kind: "approve", capturedMinor: input.amountMinor };
  if (!input.allowPartially) return { kind: "decline", reason: "insufficient_funds" };
  return { kind: "partial", capturedMinor: (input.amountMinor * PARTIAL_PERCENT) / 100n };
}

/** Payout parts (split_mode): over 10,000.00 three parts, the remainder on the last; else one. */
export function splitAmounts(amountMinor: bigint): bigint[] {
  if (amountMinor <= SPLIT_THRESHOLD_MINOR) return [amountMinor];
  const part = amountMinor / SPLIT_PARTS;
  return [part, part, amountMinor - part * (SPLIT_PARTS - 1n)];
}

/**
 * A payout whose amount ends in .41 is taken but stays in progress (split: the first part paid, the
 * rest queued) for a minute; the first status request after that completes it. It can be canceled meanwhile.
 */
export const PAYOUT_IN_PROGRESS_CENTS = "41";

export function payoutStaysInProgress(amountText: string): boolean {
  return new RegExp(`\\.${PAYOUT_IN_PROGRESS_CENTS}0*$`).test(amountText.trim());
}

import { describe, expect, it } from "vitest";
import { decideAmount, decideCard, disputeReasonOfCard, formatCardNumber, INVALID_CVC, splitAmounts, TEST_CARDS } from "./cards";

const base = { amountText: "10.00", amountMinor: 1000n, allowPartially: false };

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

describe("TEST_CARDS (the hosted page's test card list)", () => {
  it("lists the five cards of the issue, the frictionless 3-D Secure card and the two dispute cards, each a Luhn-valid 16-digit number with a label and an outcome", () => {
    expect(TEST_CARDS.map((c) => c.number)).toEqual([
      "4242424242424242",
      "4000000000000002",
      "4000000000009995",
      "4000000000000119",
      "4000000000003220",
      "4000000000003063",
      "4000000000000259",
      "4000000000002685",
    ]);
    for (const card of TEST_CARDS) {
      expect(luhnValid(card.number), card.number).toBe(true);
      expect(card.label.length).toBeGreaterThan(0);
      expect(card.outcome.length).toBeGreaterThan(0);
    }
  });

  it("formats numbers in groups of four", () => {
    expect(formatCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
  });
});

describe("disputeReasonOfCard", () => {
  it("names the reason of the two dispute cards (masked numbers too) and nothing for any other card", () => {
    expect(disputeReasonOfCard("4000000000000259")).toBe("fraudulent");
    expect(disputeReasonOfCard("400000******2685")).toBe("not_received");
    expect(disputeReasonOfCard("4242424242424242")).toBeUndefined();
    expect(TEST_CARDS.find((card) => card.number === "4000000000000259")?.outcome).toContain("fraudulent");
  });
});

describe("decideCard", () => {
  it("asked for 3-D Secure, challenges every card but the frictionless one (and the unavailable one)", () => {
    const asked = { amountText: "10.00", amountMinor: 1000n, allowPartially: false, threeDsRequested: true };
    for (const cardNumber of ["4242424242424242", "4000000000000002", "5555555555554444", "4000000000003220"]) {
      expect(decideCard({ ...asked, cardNumber }), cardNumber).toEqual({ kind: "three_ds" });
    }
    expect(decideCard({ ...asked, cardNumber: "4000000000003063" })).toEqual({ kind: "approve", capturedMinor: 1000n });
    expect(decideCard({ ...asked, cardNumber: "4000000000000119" })).toEqual({ kind: "unavailable" });
    // Not asked: the frictionless card is a card like any other.
    expect(decideCard({ ...asked, threeDsRequested: false, cardNumber: "4000000000003063" })).toEqual({ kind: "approve", capturedMinor: 1000n });
  });

  it.each([
    ["4242424242424242", { kind: "approve", capturedMinor: 1000n }],
    ["4000000000000002", { kind: "decline", reason: "issuer_decline" }],
    ["4000000000009995", { kind: "decline", reason: "insufficient_funds" }],
    ["4000000000000119", { kind: "unavailable" }],
    ["4000000000003220", { kind: "three_ds" }],
    ["4000000000000259", { kind: "approve", capturedMinor: 1000n }],
    ["4000000000002685", { kind: "approve", capturedMinor: 1000n }],
    ["5555555555554444", { kind: "approve", capturedMinor: 1000n }],
  ])("card %s → %o", (cardNumber, decision) => {
    expect(decideCard({ ...base, cardNumber })).toEqual(decision);
  });

  it("decides masked payout numbers and spaced numbers by their last four digits", () => {
    expect(decideCard({ ...base, cardNumber: "400000******0002" })).toEqual({ kind: "decline", reason: "issuer_decline" });
    expect(decideCard({ ...base, cardNumber: "4000 0000 0000 0119" })).toEqual({ kind: "unavailable" });
  });

  it("refuses the invalid CVC with invalid_cvv", () => {
    expect(decideCard({ ...base, cardNumber: "4242424242424242", cvc: INVALID_CVC })).toEqual({ kind: "decline", reason: "invalid_cvv" });
  });

  it("captures 75 % of an amount ending in .77 when partial processing is allowed", () => {
    const input = { cardNumber: "4242424242424242", amountText: "100.77", amountMinor: 10077n, allowPartially: true };
    expect(decideCard(input)).toEqual({ kind: "partial", capturedMinor: 7557n });
  });

  it("fails the same amount as insufficient_funds without allow_partially", () => {
    const input = { cardNumber: "4242424242424242", amountText: "100.77", amountMinor: 10077n, allowPartially: false };
    expect(decideCard(input)).toEqual({ kind: "decline", reason: "insufficient_funds" });
  });

  it("treats .770 like .77 and .7 or .177 not", () => {
    expect(decideAmount({ amountText: "1.770", amountMinor: 1770n, allowPartially: true }).kind).toBe("partial");
    expect(decideAmount({ amountText: "1.7", amountMinor: 170n, allowPartially: true }).kind).toBe("approve");
    expect(decideAmount({ amountText: "1.177", amountMinor: 1177n, allowPartially: true }).kind).toBe("approve");
  });

  it("lets the card decide before the amount: a declining card with .77 is still declined", () => {
    const input = { cardNumber: "4000000000000002", amountText: "1.77", amountMinor: 177n, allowPartially: true };
    expect(decideCard(input)).toEqual({ kind: "decline", reason: "issuer_decline" });
  });
});

describe("splitAmounts (spec 4.2 split_mode)", () => {
  it("keeps amounts up to 10,000.00 whole", () => {
    expect(splitAmounts(1_000_000n)).toEqual([1_000_000n]);
    expect(splitAmounts(500n)).toEqual([500n]);
  });

  it("splits larger amounts in three parts that add up exactly", () => {
    const parts = splitAmounts(1_000_001n);
    expect(parts).toHaveLength(3);
    expect(parts.reduce((a, b) => a + b, 0n)).toBe(1_000_001n);
    expect(parts).toEqual([333_333n, 333_333n, 333_335n]);
  });
});

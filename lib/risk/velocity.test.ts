import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_RISK_SETTINGS } from "./settings";
import { velocityVerdict, type PastAttempt } from "./velocity";

/**
 * The defaults against the two patterns they are for: a real customer's retries are never refused,
 * card testing from one address always is, whatever the timing and whatever else goes on around.
 */
const MINUTE = 60_000;
const START = 1_800_000_000_000;

/** Other customers' attempts at the same time: other cards, addresses, e-mails and invoices. */
const background = fc.array(
  fc.record({
    invoiceId: fc.constantFrom("inv-a", "inv-b", "inv-c"),
    cardFingerprint: fc.constantFrom("other-1", "other-2", "other-3", null),
    addressHash: fc.constantFrom("addr-x", "addr-y", null),
    emailHash: fc.constantFrom("mail-x", null),
    outcome: fc.constantFrom<PastAttempt["outcome"]>("open", "declined", "succeeded", "blocked"),
    at: fc.integer({ min: START - 120 * MINUTE, max: START + 60 * MINUTE }),
  }),
  { maxLength: 40 },
);

describe("the default velocity limits", () => {
  it("never refuse a real customer: one card, two declines, then the success", () => {
    fc.assert(
      fc.property(background, fc.array(fc.integer({ min: 0, max: 30 * MINUTE }), { minLength: 3, maxLength: 3 }), fc.boolean(), (others, gaps, withEmail) => {
        const keys = { invoiceId: "inv-real", cardFingerprint: "card-real", addressHash: "addr-real", emailHash: withEmail ? "mail-real" : null };
        const history: PastAttempt[] = [...others];
        let at = START;
        for (const [n, gap] of gaps.entries()) {
          at += gap;
          expect(velocityVerdict(DEFAULT_RISK_SETTINGS, history, keys, at)).toBeNull();
          history.push({ ...keys, outcome: n < 2 ? "declined" : "succeeded", at });
        }
      }),
    );
  });

  it("always stop card testing from one address: many different cards, within the window, whatever their outcomes", () => {
    fc.assert(
      fc.property(
        background,
        fc.integer({ min: DEFAULT_RISK_SETTINGS.addressCards + 1, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 40, maxLength: 40 }),
        fc.array(fc.constantFrom<PastAttempt["outcome"]>("declined", "succeeded", "open"), { minLength: 40, maxLength: 40 }),
        fc.boolean(),
        (others, cards, gaps, outcomes, oneInvoice) => {
          const history: PastAttempt[] = [...others];
          let at = START;
          let reached = 0;
          for (let n = 0; n < cards; n += 1) {
            at += gaps[n]!;
            const keys = { invoiceId: oneInvoice ? "inv-target" : `inv-${n}`, cardFingerprint: `tested-${n}`, addressHash: "addr-tester", emailHash: null };
            const rule = velocityVerdict(DEFAULT_RISK_SETTINGS, history, keys, at);
            history.push({ ...keys, outcome: rule ? "blocked" : outcomes[n]!, at });
            if (!rule) reached += 1;
          }
          // At most the limit's worth of different cards ever reaches a provider, and the rest is refused.
          expect(reached).toBeLessThanOrEqual(DEFAULT_RISK_SETTINGS.addressCards);
          expect(history.filter((entry) => entry.addressHash === "addr-tester" && entry.outcome === "blocked").length).toBe(cards - reached);
        },
      ),
    );
  });

  it("stop a run of declines from one address even with one card, and let the address go once the window has passed", () => {
    const keys = { invoiceId: "inv-1", cardFingerprint: "card-1", addressHash: "addr-1", emailHash: null };
    const declines: PastAttempt[] = Array.from({ length: DEFAULT_RISK_SETTINGS.addressDeclines }, (_, n) => ({
      ...keys,
      invoiceId: `inv-${n}`,
      outcome: "declined",
      at: START + n * 1000,
    }));
    expect(velocityVerdict(DEFAULT_RISK_SETTINGS, declines, { ...keys, invoiceId: "inv-new" }, START + 10_000)).toBe("address_declines");
    // Later, another card from that address passes (the declined card itself stays counted for its own, longer window).
    const later = START + DEFAULT_RISK_SETTINGS.addressWindowMinutes * MINUTE + 10_000;
    expect(velocityVerdict(DEFAULT_RISK_SETTINGS, declines, { ...keys, invoiceId: "inv-new", cardFingerprint: "card-2" }, later)).toBeNull();
    expect(velocityVerdict(DEFAULT_RISK_SETTINGS, declines, { ...keys, invoiceId: "inv-new" }, later)).toBe("card_declines");
  });

  it("refuse a fourth different card on one invoice, from any addresses", () => {
    const history: PastAttempt[] = [1, 2, 3].map((n) => ({
      invoiceId: "inv",
      cardFingerprint: `c${n}`,
      addressHash: `a${n}`,
      emailHash: null,
      outcome: "declined",
      at: START,
    }));
    expect(velocityVerdict(DEFAULT_RISK_SETTINGS, history, { invoiceId: "inv", cardFingerprint: "c4", addressHash: "a4", emailHash: null }, START + 1)).toBe(
      "invoice_cards",
    );
    // The same card again is not a new card.
    expect(
      velocityVerdict(DEFAULT_RISK_SETTINGS, history, { invoiceId: "inv", cardFingerprint: "c2", addressHash: "a4", emailHash: null }, START + 1),
    ).toBeNull();
  });
});

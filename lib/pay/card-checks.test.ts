import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cardFieldErrors } from "./card-checks";
import { cardSchema } from "./card-schema";

/**
 * The browser checks the card with cardFieldErrors (no zod on the hosted page); Pay on the server
 * parses with cardSchema. Both must say the same thing about every input.
 */
const now = new Date("2026-11-24T03:00:00Z");

function schemaErrors(takesCvc: boolean, values: unknown) {
  const result = cardSchema({ takesCvc, now }).safeParse(values);
  const errors: Record<string, string> = {};
  if (!result.success) for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

const digitsLike = fc.oneof(fc.string(), fc.stringMatching(/^[0-9 -]{0,24}$/), fc.constantFrom("4242 4242 4242 4242", "4000000000000002", "4242424242424241"));
const expiryLike = fc.oneof(fc.string(), fc.stringMatching(/^\s?\d{1,2}\s?\/\s?\d{2}\s?$/), fc.constantFrom("11/26", "10/26", "12/46", "12/47"));
const values = fc.record({
  number: digitsLike,
  expiry: expiryLike,
  cvc: fc.oneof(fc.string(), fc.stringMatching(/^\s?\d{2,5}\s?$/)),
  holder: fc.string({ maxLength: 120 }),
});

describe("cardFieldErrors (the hosted page's checks in the browser)", () => {
  it("accepts a valid card and names each wrong field with the server's message", () => {
    const valid = { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123", holder: "Ada Lovelace" };
    expect(cardFieldErrors(valid, { takesCvc: true, now })).toEqual({});
    expect(cardFieldErrors({ ...valid, number: "4242424242424241", expiry: "10/26", cvc: "12", holder: "A" }, { takesCvc: true, now })).toEqual({
      number: "This card number is not valid: check the digits.",
      expiry: "This card has expired.",
      cvc: "Enter the 3 or 4 digit CVC.",
      holder: "Enter the name on the card (2 to 100 characters).",
    });
    expect(cardFieldErrors({ ...valid, cvc: "" }, { takesCvc: false, now })).toEqual({});
  });

  it("agrees with the server's schema on any input, with and without a CVC", () => {
    fc.assert(
      fc.property(values, fc.boolean(), (input, takesCvc) => {
        expect(cardFieldErrors(input, { takesCvc, now })).toEqual(schemaErrors(takesCvc, input));
      }),
      { numRuns: 500 },
    );
  });

  it("agrees on missing fields too", () => {
    for (const takesCvc of [true, false]) {
      expect(cardFieldErrors({}, { takesCvc, now })).toEqual(schemaErrors(takesCvc, {}));
      expect(cardFieldErrors({ number: 4242, holder: null }, { takesCvc, now })).toEqual(schemaErrors(takesCvc, { number: 4242, holder: null }));
    }
  });
});

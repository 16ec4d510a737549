import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cardBrandOf, cardCountryOf, cardFactsOf } from "./bin";

const digits = (length: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: length, maxLength: length });

describe("BIN facts", () => {
  it("names the networks by their published ranges", () => {
    fc.assert(
      fc.property(digits(12), (rest) => {
        expect(cardBrandOf(`4${rest}`)).toBe("visa");
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 51, max: 55 }), digits(12), (p, rest) => {
        expect(cardBrandOf(`${p}${rest}`)).toBe("mastercard");
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 2221, max: 2720 }), digits(12), (p, rest) => {
        expect(cardBrandOf(`${p}${rest}`)).toBe("mastercard");
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom(34, 37), digits(12), (p, rest) => {
        expect(cardBrandOf(`${p}${rest}`)).toBe("amex");
      }),
    );
    expect(cardBrandOf("2220000000000000")).toBeNull();
    expect(cardBrandOf("6011000000000004")).toBe("discover");
    expect(cardBrandOf("3530111333300000")).toBe("jcb");
  });

  it("knows the test BINs' countries only, and reads a masked payout number's first digits", () => {
    expect(cardCountryOf("424242424")).toBe("US");
    expect(cardCountryOf("400000826")).toBe("GB");
    expect(cardCountryOf("400000250")).toBe("FR");
    expect(cardCountryOf("411111111")).toBeNull();
    expect(cardFactsOf("400000******0002")).toEqual({ brand: "visa", country: "US" });
    expect(cardFactsOf("4000 0082 6000 0000")).toEqual({ brand: "visa", country: "GB" });
    expect(cardFactsOf("4000**")).toBeNull();
  });
});

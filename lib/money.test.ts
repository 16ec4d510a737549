import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatMinor, formatMoney, InvalidAmountError, minorDigitsOf, parseAmount, toMinorUnits } from "@/lib/money";

describe("parseAmount", () => {
  it.each([
    [100, "EUR", "100", 10000n],
    [100.5, "EUR", "100.5", 10050n],
    ["100.50", "EUR", "100.50", 10050n],
    [0.01, "UAH", "0.01", 1n],
    ["0.1", "AMD", "0.1", 10n],
    [0.3, "UZS", "0.3", 30n],
    ["999999999999.99", "EUR", "999999999999.99", 99999999999999n],
    [999999999999.99, "EUR", "999999999999.99", 99999999999999n],
    [12.5, "XYZ", "12.5", 1250n],
  ])("accepts %j %s", (value, currency, text, minor) => {
    expect(parseAmount(value, currency)).toEqual({ ok: true, text, minor });
  });

  it.each([
    [0, "greater than zero"],
    ["0.00", "greater than zero"],
    [-1, "greater than zero"],
    ["-1", "greater than zero"],
    [-0, "greater than zero"],
    [1.234, "at most 2 decimal places"],
    ["1.234", "at most 2 decimal places"],
    ["1e3", "exponent"],
    [1e-7, "decimal places"],
    ["", "empty"],
    [" 1", "spaces"],
    ["+1", '"+"'],
    [null, "decimal number or string"],
    [true, "decimal number or string"],
    ["abc", "decimal number"],
    ["1,5", "decimal separator"],
    [".5", "decimal number"],
    ["5.", "decimal number"],
    ["01", "leading zeros"],
    [10 ** 13, "at most 12 digits"],
    ["10000000000000", "at most 12 digits"],
    [1e21, "at most 12 digits"],
    [Number.NaN, "finite"],
    [Number.POSITIVE_INFINITY, "finite"],
  ])("rejects %j (%s)", (value, fragment) => {
    const result = parseAmount(value, "EUR");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(fragment);
  });

  it("falls back to 2 minor digits for an unknown currency", () => {
    expect(minorDigitsOf("XYZ")).toBe(2);
    expect(parseAmount("1.001", "XYZ").ok).toBe(false);
  });

  it("round-trips every amount in range through text and through a JSON number", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 14n - 1n }), (minor) => {
        const text = formatMinor(minor, "EUR");
        expect(parseAmount(text, "EUR")).toEqual({ ok: true, text, minor });
        const viaJson: unknown = JSON.parse(text);
        expect(toMinorUnits(viaJson, "EUR")).toBe(minor);
      }),
    );
  });
});

describe("toMinorUnits", () => {
  it("throws on a bad amount", () => {
    expect(() => toMinorUnits("1.234", "EUR")).toThrow(InvalidAmountError);
  });

  it("sums exactly where doubles do not", () => {
    expect(toMinorUnits(0.1, "EUR") + toMinorUnits(0.2, "EUR")).toBe(toMinorUnits("0.30", "EUR"));
  });
});

describe("formatMinor", () => {
  it.each([
    [10050n, "100.50"],
    [1n, "0.01"],
    [0n, "0.00"],
    [-250n, "-2.50"],
    [99999999999999n, "999999999999.99"],
  ])("%s → %s", (minor, text) => {
    expect(formatMinor(minor, "EUR")).toBe(text);
  });
});

describe("formatMoney (one format per currency in the dashboard)", () => {
  it("writes the currency's decimals whatever the text had, so 120 and 100.50 read alike", () => {
    expect(formatMoney("120", "EUR")).toBe("120.00 EUR");
    expect(formatMoney("100.5", "EUR")).toBe("100.50 EUR");
    expect(formatMoney("100.50", "EUR")).toBe("100.50 EUR");
    expect(formatMoney("0", "UAH")).toBe("0.00 UAH");
  });
  it("minor units through formatMinor", () => {
    expect(formatMoney(12000n, "EUR")).toBe("120.00 EUR");
    expect(formatMoney(5n, "AMD")).toBe("0.05 AMD");
  });
  it("text that is not an amount of the currency is shown as it is", () => {
    expect(formatMoney("1.234", "EUR")).toBe("1.234 EUR");
    expect(formatMoney("n/a", "EUR")).toBe("n/a EUR");
  });
});

import { describe, expect, it } from "vitest";
import { formatCardNumberInput, formatExpiryInput, testCardExpiry } from "./card-checks";

describe("hosted page input formatting", () => {
  it("groups card digits by four and drops anything else", () => {
    expect(formatCardNumberInput("4242-4242 4242x4242")).toBe("4242 4242 4242 4242");
    expect(formatCardNumberInput("4".repeat(25)).replace(/ /g, "")).toHaveLength(19);
  });

  it("adds the expiry slash once the month is typed", () => {
    expect(formatExpiryInput("1")).toBe("1");
    expect(formatExpiryInput("12")).toBe("12");
    expect(formatExpiryInput("123")).toBe("12/3");
    expect(formatExpiryInput("12/30")).toBe("12/30");
    expect(formatExpiryInput("12/3099")).toBe("12/30");
  });

  it("gives test cards an expiry three years ahead", () => {
    expect(testCardExpiry(new Date(2026, 10, 24))).toBe("11/29");
  });
});

import { describe, expect, it } from "vitest";
import { isLuhnValid, isMaskedCardNumber, maskCardNumber, stripCardSeparators } from "./card-number";

describe("isLuhnValid", () => {
  it.each(["4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "79927398713"])("accepts %s", (digits) =>
    expect(isLuhnValid(digits)).toBe(true),
  );

  it.each(["4111111111111112", "79927398710", "4111 1111 1111 1111", "", "41111111111111a1"])("rejects %j", (digits) =>
    expect(isLuhnValid(digits)).toBe(false),
  );
});

describe("maskCardNumber", () => {
  it.each([
    ["4111111111111111", "411111******1111"],
    ["4111 1111 1111 1111", "411111******1111"],
    ["378282246310005", "378282*****0005"],
    ["4111111111111111111", "411111*********1111"],
    ["411111111111", "411111**1111"],
    ["41111111111", "***********"],
    ["", ""],
  ])("%s → %s", (input, masked) => {
    expect(maskCardNumber(input)).toBe(masked);
  });

  it("never shows more than ten digits", () => {
    for (let length = 0; length <= 19; length += 1) {
      const visible = maskCardNumber("4".repeat(length)).replace(/\*/g, "");
      expect(visible.length).toBeLessThanOrEqual(Math.max(0, Math.min(10, length - 2)));
    }
  });
});

describe("isMaskedCardNumber (spec 2.2: digits with asterisks)", () => {
  it.each(["411111******1111", "411111**1111", "4111 11** **** 1111", "411111*********1111", "4111111*****1111"])("accepts %s", (value) => {
    expect(isMaskedCardNumber(value)).toBe(true);
  });

  it.each([
    "4111111111111111",
    "41111*******1111",
    "411111*******111",
    "411111*1111",
    `411111${"*".repeat(10)}1111`,
    "******************",
    "411111**x***1111",
    "",
  ])("rejects %j", (value) => expect(isMaskedCardNumber(value)).toBe(false));

  it("re-masks a mask that shows more than six and four digits", () => {
    expect(maskCardNumber("4111111*****1111")).toBe("411111******1111");
  });
});

describe("stripCardSeparators", () => {
  it("removes spaces and dashes only", () => {
    expect(stripCardSeparators(" 4111-1111 1111\t1111 ")).toBe("4111111111111111");
    expect(stripCardSeparators("4111.1111")).toBe("4111.1111");
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskSecret } from "./mask-secret";

describe("maskSecret", () => {
  it.each([
    ["", "••••"],
    ["a", "••••"],
    ["abcdefg", "••••"],
    ["abcdefgh", "••••efgh"],
    ["prod_sec_0123456789abcdef", "••••cdef"],
  ])("masks %j as %j", (value, expected) => {
    expect(maskSecret(value)).toBe(expected);
  });

  it("never splits a surrogate pair", () => {
    expect(maskSecret("secret-🔑🔑🔑🔑")).toBe("••••🔑🔑🔑🔑");
  });

  it("reveals at most four characters and never most of a secret", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (value) => {
        const masked = maskSecret(value);
        expect(masked.startsWith("••••")).toBe(true);
        const revealed = Array.from(masked).length - 4;
        expect(revealed).toBeLessThanOrEqual(4);
        expect(revealed * 2).toBeLessThanOrEqual(Array.from(value).length);
      }),
    );
  });
});

import { describe, expect, it } from "vitest";
import { findUnsafeText, isSafeText } from "./text-safety";

describe("text PostgreSQL cannot store", () => {
  it("finds NUL and unpaired surrogates but accepts real astral characters", () => {
    expect(isSafeText("plain ✓ 😀")).toBe(true);
    expect(isSafeText("a\u0000b")).toBe(false);
    expect(isSafeText("\ud800")).toBe(false);
    expect(isSafeText("x\udc00")).toBe(false);
  });

  it("names the path of the first bad string or key", () => {
    expect(findUnsafeText({ data: { attributes: { customer: { name: "ok", city: ["a", "b\u0000"] } } } })).toEqual([
      "data",
      "attributes",
      "customer",
      "city",
      1,
    ]);
    expect(findUnsafeText({ ["k\ud800"]: 1 })).toEqual(["k\ud800"]);
    expect(findUnsafeText({ fine: [1, true, null, "x"] })).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { SIGN_IN_WINDOW_MS } from "./limits";
import { limitedCode, retryAfterOfCode, waitAfterFailure, waitInWords } from "./sign-in-limit";

describe("sign-in limit details", () => {
  it("an address that failed for an account under attack waits 30 s, doubling per failure, at most the window", () => {
    expect([1, 2, 3, 4].map(waitAfterFailure)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(waitAfterFailure(10)).toBe(SIGN_IN_WINDOW_MS);
    expect(waitAfterFailure(1_000)).toBe(SIGN_IN_WINDOW_MS);
  });

  it("the refusal's code carries whole seconds, at least one; other codes carry none", () => {
    expect(retryAfterOfCode(limitedCode(29.2))).toBe(30);
    expect(retryAfterOfCode(limitedCode(0))).toBe(1);
    for (const other of ["credentials", "too_many_attempts", "too_many_attempts:", "too_many_attempts:-1", "x too_many_attempts:5", null, undefined]) {
      expect(retryAfterOfCode(other)).toBeUndefined();
    }
  });

  it("says the wait in seconds under a minute, else in minutes rounded up", () => {
    expect([1, 30, 59, 60, 61, 900].map(waitInWords)).toEqual(["1 second", "30 seconds", "59 seconds", "1 minute", "2 minutes", "15 minutes"]);
  });
});

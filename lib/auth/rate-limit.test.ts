import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit";

describe("sign-in rate limit (REFERENCE Limits: 10 per 15 minutes)", () => {
  it("allows ten failures and then refuses with the seconds left", () => {
    const limiter = createRateLimiter(10, 15 * 60_000);
    for (let i = 0; i < 10; i++) {
      expect(limiter.check("a@example.com", 1_000)).toBe(0);
      limiter.fail("a@example.com", 1_000);
    }
    expect(limiter.check("a@example.com", 61_000)).toBe(15 * 60 - 60);
  });

  it("opens a new window after the old one passes, and keys are separate", () => {
    const limiter = createRateLimiter(1, 1_000);
    limiter.fail("k", 0);
    expect(limiter.check("k", 10)).toBeGreaterThan(0);
    expect(limiter.check("other", 10)).toBe(0);
    expect(limiter.check("k", 1_000)).toBe(0);
  });

  it("forgets an account's failures after a successful sign-in", () => {
    const limiter = createRateLimiter(1, 60_000);
    limiter.fail("k", 0);
    limiter.reset("k");
    expect(limiter.check("k", 1)).toBe(0);
  });
});

describe("counting before the outcome is known", () => {
  it("add counts and answers the count with the seconds left; forgive takes one back", () => {
    const limiter = createRateLimiter(2, 60_000);
    expect(limiter.add("k", 0)).toEqual({ count: 1, secondsLeft: 60 });
    expect(limiter.add("k", 30_000)).toEqual({ count: 2, secondsLeft: 30 });
    expect(limiter.check("k", 30_000)).toBe(30);
    limiter.forgive("k", 30_000);
    expect(limiter.check("k", 30_000)).toBe(0);
    // A window that has ended is not forgiven into; the next add opens a new one.
    limiter.forgive("k", 60_000);
    expect(limiter.add("k", 60_000)).toEqual({ count: 1, secondsLeft: 60 });
  });
});

import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limit";

describe("sign-in rate limit (REFERENCE Limits: 10 per 15 minutes)", () => {
  it("allows ten attempts and refuses the eleventh with the seconds left", () => {
    const limiter = createRateLimiter(10, 15 * 60_000);
    for (let i = 0; i < 10; i++) expect(limiter.hit("a@example.com", 1_000)).toBe(0);
    expect(limiter.hit("a@example.com", 61_000)).toBe(15 * 60 - 60);
  });

  it("opens a new window after the old one passes, and keys are separate", () => {
    const limiter = createRateLimiter(1, 1_000);
    expect(limiter.hit("k", 0)).toBe(0);
    expect(limiter.hit("k", 10)).toBeGreaterThan(0);
    expect(limiter.hit("other", 10)).toBe(0);
    expect(limiter.hit("k", 1_000)).toBe(0);
  });
});

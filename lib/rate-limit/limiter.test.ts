import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./limiter";

describe("the in-memory window counter", () => {
  it("counts every attempt in the window and says how long the window has left", () => {
    const limiter = createRateLimiter(15 * 60_000);
    for (let i = 1; i <= 10; i++) expect(limiter.add("a@example.com", 1_000)).toEqual({ count: i, secondsLeft: 15 * 60 });
    expect(limiter.add("a@example.com", 61_000)).toEqual({ count: 11, secondsLeft: 15 * 60 - 60 });
  });

  it("opens a new window after the old one passes, and keys are separate", () => {
    const limiter = createRateLimiter(1_000);
    limiter.add("k", 0);
    expect(limiter.add("k", 10).count).toBe(2);
    expect(limiter.add("other", 10).count).toBe(1);
    expect(limiter.add("k", 1_000)).toEqual({ count: 1, secondsLeft: 1 });
  });

  it("forgets a key's attempts on reset", () => {
    const limiter = createRateLimiter(60_000);
    limiter.add("k", 0);
    limiter.reset("k");
    expect(limiter.add("k", 1).count).toBe(1);
  });

  it("forgive takes one attempt back, only in the window it was counted in", () => {
    const limiter = createRateLimiter(60_000);
    expect(limiter.add("k", 0)).toEqual({ count: 1, secondsLeft: 60 });
    expect(limiter.add("k", 30_000)).toEqual({ count: 2, secondsLeft: 30 });
    limiter.forgive("k", 30_000);
    expect(limiter.add("k", 30_000).count).toBe(2);
    // A window that has ended is not forgiven into; the next add opens a new one.
    limiter.forgive("k", 60_000);
    expect(limiter.add("k", 60_000)).toEqual({ count: 1, secondsLeft: 60 });
  });
});

import { beforeEach, describe, expect, it } from "vitest";
import { countTrackedKeys, RATE_LIMIT_BURST, RATE_LIMIT_MAX_KEYS, RATE_LIMIT_PER_SECOND, resetRateLimits, takeToken } from "./rate-limit";

beforeEach(() => resetRateLimits());

describe("takeToken", () => {
  it("allows the burst, then refuses with Retry-After, then refills at the sustained rate", () => {
    const t0 = 1_000_000;
    for (let i = 0; i < RATE_LIMIT_BURST; i++) expect(takeToken("k", t0)).toEqual({ ok: true });
    expect(takeToken("k", t0)).toEqual({ ok: false, retryAfterSeconds: 1 });

    const oneSecondLater = t0 + 1000;
    for (let i = 0; i < RATE_LIMIT_PER_SECOND; i++) expect(takeToken("k", oneSecondLater).ok).toBe(true);
    expect(takeToken("k", oneSecondLater).ok).toBe(false);
  });

  it("keeps keys apart", () => {
    for (let i = 0; i < RATE_LIMIT_BURST; i++) takeToken("a", 0);
    expect(takeToken("a", 0).ok).toBe(false);
    expect(takeToken("b", 0).ok).toBe(true);
  });

  it("never refills beyond the burst", () => {
    takeToken("k", 0);
    const later = 3_600_000;
    for (let i = 0; i < RATE_LIMIT_BURST; i++) expect(takeToken("k", later).ok).toBe(true);
    expect(takeToken("k", later).ok).toBe(false);
  });

  it("bounds the number of remembered keys", () => {
    for (let i = 0; i < RATE_LIMIT_MAX_KEYS + 50; i++) takeToken(`k${i}`, 0);
    expect(countTrackedKeys()).toBe(RATE_LIMIT_MAX_KEYS);
  });
});

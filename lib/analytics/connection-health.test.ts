import { describe, expect, it } from "vitest";
import { disputeRateIsHigh, healthFigures, healthOf, windowMark } from "./connection-health";
import { percentileOf } from "./overview";

describe("healthOf", () => {
  it("is healthy with nothing or too little counted, degraded and failing by streak or by share", () => {
    expect(healthOf("")).toBe("healthy");
    expect(healthOf("F")).toBe("healthy");
    expect(healthOf("SSSSSSSSSF")).toBe("healthy"); // 90 %
    expect(healthOf("FF")).toBe("degraded");
    expect(healthOf("SSF")).toBe("degraded"); // 67 % of 3
    expect(healthOf("FFF")).toBe("failing");
    expect(healthOf("SSSSSSSSFFF")).toBe("failing"); // streak wins over share
    expect(healthOf("FSFSF")).toBe("failing"); // 40 %
    expect(healthOf("FFFSSSSSSSSSSSS")).toBe("healthy"); // 80 %
  });

  it("is degraded at least while the dispute rate is high, and never failing for it alone", () => {
    expect(healthOf("SSSS", true)).toBe("degraded");
    expect(healthOf("", true)).toBe("degraded");
    expect(healthOf("FFF", true)).toBe("failing");
  });
});

describe("disputeRateIsHigh", () => {
  it("needs 20 payments and 1 % of them disputed", () => {
    expect(disputeRateIsHigh({ disputes: 1, payments: 19 })).toBe(false);
    expect(disputeRateIsHigh({ disputes: 1, payments: 20 })).toBe(true);
    expect(disputeRateIsHigh({ disputes: 1, payments: 100 })).toBe(true);
    expect(disputeRateIsHigh({ disputes: 1, payments: 101 })).toBe(false);
    expect(disputeRateIsHigh({ disputes: 0, payments: 500 })).toBe(false);
  });
});

describe("healthFigures", () => {
  it("gives the counts the rule reads: counted, succeeded, failed, the share and the failures since the last success", () => {
    expect(healthFigures("")).toEqual({ counted: 0, succeeded: 0, failed: 0, successRate: null, failuresInARow: 0 });
    expect(healthFigures("SSSF")).toEqual({ counted: 4, succeeded: 3, failed: 1, successRate: 0.75, failuresInARow: 1 });
    expect(healthFigures("FFSFFF")).toEqual({ counted: 6, succeeded: 1, failed: 5, successRate: 1 / 6, failuresInARow: 3 });
    expect(healthFigures("FF")).toMatchObject({ successRate: 0, failuresInARow: 2 });
  });
});

describe("windowMark", () => {
  it("counts successes and technical failures once, never issuer declines or a rewritten settled attempt", () => {
    expect(windowMark("in_flight", "succeeded", "ok")).toBe("S");
    expect(windowMark("in_flight", "soft_failed", "provider_unavailable")).toBe("F");
    expect(windowMark("in_flight", "unknown", null)).toBe("F");
    expect(windowMark("unknown", "succeeded", "ok")).toBeNull(); // counted when it became unknown
    expect(windowMark("in_flight", "declined", "issuer_decline")).toBeNull();
    expect(windowMark("pending", "declined", "auth_3ds_failed")).toBeNull();
    expect(windowMark("in_flight", "pending", null)).toBeNull();
    expect(windowMark("succeeded", "declined", "general_error")).toBeNull(); // a payout cancel
  });
});

describe("percentileOf", () => {
  it("gives the upper bound of the bucket where the share is reached, null without data", () => {
    expect(percentileOf([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0.5)).toBeNull();
    expect(percentileOf([0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0], 0.5)).toBe(200);
    expect(percentileOf([0, 0, 0, 50, 45, 4, 1, 0, 0, 0, 0, 0], 0.95)).toBe(400);
    expect(percentileOf([0, 0, 0, 50, 40, 4, 6, 0, 0, 0, 0, 0], 0.95)).toBe(1600);
    expect(percentileOf([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3], 0.5)).toBe(Number.POSITIVE_INFINITY);
  });
});

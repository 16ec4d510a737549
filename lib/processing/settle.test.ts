import { describe, expect, it } from "vitest";
import { targetOf } from "./settle";

describe("where an outcome takes a payment of flow authorize", () => {
  const invoice = { amountMinor: 10000n, options: {}, flow: "authorize" };

  it("a success is an authorization, with the provider's hold time when it said one", () => {
    const until = new Date("2031-01-08T10:00:00Z");
    expect(targetOf(invoice, { kind: "succeeded", providerReference: "r", processedAmountMinor: 10000n, authorized: { until } })).toEqual({
      status: "authorized",
      resolution: "ok",
      authorizedMinor: 10000n,
      authorizedUntil: until,
    });
  });

  it("a success that does not say it was an authorization (a recovered attempt's record) is still one, never processed", () => {
    expect(targetOf(invoice, { kind: "succeeded", providerReference: "r", processedAmountMinor: 10000n })).toMatchObject({
      status: "authorized",
      authorizedMinor: 10000n,
    });
    // A charge's success is processed as before.
    expect(targetOf({ ...invoice, flow: "charge" }, { kind: "succeeded", providerReference: "r", processedAmountMinor: 10000n })).toMatchObject({
      status: "processed",
    });
  });
});

import { describe, expect, it } from "vitest";
import { summarizeThreeDs, threeDsAfter } from "./three-ds";

describe("an attempt's 3-D Secure step from its outcomes", () => {
  it("is asked for by a redirect and passed when the payment then settles", () => {
    const asked = threeDsAfter(null, { kind: "pending", redirectUrl: "https://pay.example/3ds" });
    expect(asked).toBe("required");
    expect(threeDsAfter(asked, { kind: "pending" })).toBe("required");
    expect(threeDsAfter(asked, { kind: "succeeded" })).toBe("passed");
    // Declined for funds after the challenge: the customer passed it all the same.
    expect(threeDsAfter(asked, { kind: "declined", resolution: "insufficient_funds" })).toBe("passed");
  });

  it("failed on an auth_3ds_failed decline, and absent when no challenge was asked", () => {
    expect(threeDsAfter("required", { kind: "declined", resolution: "auth_3ds_failed" })).toBe("failed");
    expect(threeDsAfter(null, { kind: "succeeded" })).toBeNull();
    expect(threeDsAfter(null, { kind: "declined", resolution: "issuer_decline" })).toBeNull();
  });

  it("asked for by a rule (requested): frictionless when the provider approves without a challenge, else the challenge as usual", () => {
    expect(threeDsAfter("requested", { kind: "succeeded" })).toBe("frictionless");
    const challenged = threeDsAfter("requested", { kind: "pending", redirectUrl: "https://pay.example/3ds" });
    expect(challenged).toBe("required");
    expect(threeDsAfter(challenged, { kind: "succeeded" })).toBe("passed");
    expect(threeDsAfter("requested", { kind: "declined", resolution: "auth_3ds_failed" })).toBe("failed");
    expect(threeDsAfter("requested", { kind: "soft_failed" })).toBe("requested");
    expect(threeDsAfter("frictionless", { kind: "succeeded" })).toBe("frictionless");
  });

  it("shifts liability to the issuer only after a passed authentication, with or without a challenge", () => {
    expect(summarizeThreeDs("passed").liabilityShift).toBe(true);
    expect(summarizeThreeDs("frictionless")).toMatchObject({ label: "Passed without a challenge (frictionless)", liabilityShift: true });
    for (const result of ["failed", "required", "requested", null] as const) expect(summarizeThreeDs(result).liabilityShift).toBe(false);
    expect(summarizeThreeDs(null).result).toBe("not_requested");
  });
});

import { describe, expect, it } from "vitest";
import { describeOutcome } from "./outcome";

const of = (
  status: Parameters<typeof describeOutcome>[0]["status"],
  resolution: Parameters<typeof describeOutcome>[0]["resolution"] = null,
  processedAmount: string | null = null,
) => describeOutcome({ status, resolution, processedAmount });

describe("describeOutcome (what the hosted page tells the customer)", () => {
  it("is open while created, in progress while the provider works", () => {
    expect(of("created")).toEqual({ kind: "open" });
    for (const status of ["processing", "process_pending", "process_error"] as const) expect(of(status)).toEqual({ kind: "in_progress" });
  });

  it("says paid, and partly paid with the processed amount", () => {
    expect(of("processed", "ok", "100.50")).toEqual({ kind: "paid" });
    expect(of("partially_processed", "ok", "75.57")).toEqual({ kind: "partly_paid", processedAmount: "75.57" });
    expect(of("refunded", "ok")).toEqual({ kind: "paid" });
  });

  it.each([
    ["issuer_decline", "Your bank declined the payment."],
    ["insufficient_funds", "The card does not have enough funds for this payment."],
    ["invalid_cvv", "The CVC does not match the card."],
    ["auth_3ds_failed", "The 3-D Secure check was not passed."],
    ["general_error", "The payment could not be completed."],
  ] as const)("declined %s: %s", (resolution, reason) => {
    expect(of("process_failed", resolution)).toEqual({ kind: "declined", reason });
  });

  it("asks to try again later when the provider, not the card, failed", () => {
    for (const resolution of ["provider_unavailable", "provider_auth_error", "unable_to_reconcile"] as const) {
      expect(of("process_failed", resolution).kind).toBe("try_later");
    }
  });

  it("says an authorization is reserved until captured, and a voided one released", () => {
    expect(of("authorized", "ok")).toEqual({ kind: "authorized" });
    expect(of("capturing", "ok")).toEqual({ kind: "authorized" });
    expect(of("processed", "ok")).toEqual({ kind: "paid" });
    for (const status of ["voiding", "voided"] as const) {
      expect(of(status)).toEqual({ kind: "closed", reason: "The amount reserved on your card was released: nothing was taken." });
    }
  });

  it("closes expired and terminated invoices", () => {
    expect(of("expired", "expired")).toEqual({ kind: "closed", reason: "This payment link has expired.", expired: true });
    expect(of("terminated")).toEqual({ kind: "closed", reason: "This invoice can no longer be paid." });
  });
});

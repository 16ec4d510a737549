import { describe, expect, it } from "vitest";
import type { InvoiceDirection } from "@/lib/providers";
import {
  canTransition,
  IllegalTransitionError,
  INVOICE_STATUSES,
  isAtRest,
  isFinal,
  nextStatuses,
  possibleStatuses,
  transition,
  TRANSITIONS,
  type InvoiceStatus,
  type Resolution,
} from "./state-machine";

const REFUNDS = ["refunding", "refunded", "partially_refunded"];
const CANCELS = ["canceling", "canceled", "partially_canceled"];
/** Authorize now, capture later: payments only, like refunds. */
const AUTHORIZATIONS = ["authorized", "capturing", "voiding", "voided"];

function legalEdges(direction: InvoiceDirection): [InvoiceStatus, InvoiceStatus][] {
  const foreign = direction === "payment" ? CANCELS : [...REFUNDS, ...AUTHORIZATIONS];
  return Object.entries(TRANSITIONS).flatMap(([from, targets]) =>
    foreign.includes(from) ? [] : targets.filter((to) => !foreign.includes(to)).map((to): [InvoiceStatus, InvoiceStatus] => [from as InvoiceStatus, to]),
  );
}

describe.each(["payment", "payout"] as const)("%s invoices", (direction) => {
  it.each(legalEdges(direction))("allows %s → %s", (from, to) => {
    expect(transition({ status: from, direction }, to)).toBe(to);
    expect(canTransition({ status: from, direction }, to)).toBe(true);
  });

  it.each([
    ["created", "processed"],
    ["created", "created"],
    ["processing", "created"],
    ["processing", "expired"],
    ["process_error", "expired"],
    ["processed", "processing"],
    ["expired", "processing"],
    ["expired", "process_failed"],
    ["terminated", "created"],
  ] as const)("refuses %s → %s loudly", (from, to) => {
    expect(canTransition({ status: from, direction }, to)).toBe(false);
    expect(() => transition({ status: from, direction }, to)).toThrow(IllegalTransitionError);
  });
});

describe("direction-specific states", () => {
  it("refunds only payments", () => {
    expect(canTransition({ status: "processed", direction: "payment" }, "refunding")).toBe(true);
    expect(canTransition({ status: "processed", direction: "payout" }, "refunding")).toBe(false);
    expect(canTransition({ status: "refunding", direction: "payout" }, "refunded")).toBe(false);
    // Partial refunds follow each other; a declined refund of a partially processed payment goes back to it.
    expect(canTransition({ status: "partially_refunded", direction: "payment" }, "refunding")).toBe(true);
    expect(canTransition({ status: "refunding", direction: "payment" }, "partially_processed", "ok")).toBe(true);
    expect(canTransition({ status: "refunded", direction: "payment" }, "refunding")).toBe(false);
  });

  it("cancels only payouts", () => {
    expect(canTransition({ status: "partially_processed", direction: "payout" }, "canceling")).toBe(true);
    expect(canTransition({ status: "processed", direction: "payment" }, "canceling")).toBe(false);
    expect(canTransition({ status: "canceling", direction: "payment" }, "canceled")).toBe(false);
  });

  it("lists next statuses per direction", () => {
    expect(nextStatuses({ status: "processed", direction: "payment" })).toEqual(["refunding"]);
    expect(nextStatuses({ status: "processed", direction: "payout" })).toEqual(["canceling"]);
  });
});

describe("attempts limit", () => {
  it("retries a failed invoice until the limit is reached", () => {
    expect(transition({ status: "process_failed", direction: "payout" }, "processing")).toBe("processing");
    expect(() => transition({ status: "process_failed", direction: "payout", attemptsExhausted: true }, "processing")).toThrow(/attempts limit/);
  });

  it("is final only once exhausted", () => {
    expect(isFinal("process_failed")).toBe(false);
    expect(isFinal("process_failed", { attemptsExhausted: true })).toBe(true);
  });
});

describe("isFinal", () => {
  it.each(INVOICE_STATUSES.map((status) => [status]))("%s", (status) => {
    // partially_refunded is not final: the rest may still be refunded.
    const finals = ["expired", "terminated", "refunded", "canceled", "partially_canceled", "voided"];
    expect(isFinal(status)).toBe(finals.includes(status));
  });
});

describe("isAtRest (nothing changes the invoice on its own)", () => {
  it.each(INVOICE_STATUSES.map((status) => [status]))("%s", (status) => {
    // Final, or only a refund or a payout cancel the merchant asks for can move it.
    const atRest = ["expired", "terminated", "refunded", "canceled", "partially_canceled", "processed", "partially_processed", "partially_refunded", "voided"];
    expect(isAtRest(status)).toBe(atRest.includes(status));
  });

  it("a failed payment with attempts left may still be paid or expire; with none left it is final", () => {
    expect(isAtRest("process_failed")).toBe(false);
    expect(isAtRest("process_failed", { attemptsExhausted: true })).toBe(true);
  });
});

describe("possibleStatuses (what the invoice list's status filter offers)", () => {
  const common = ["created", "processing", "process_pending", "process_error", "process_failed", "processed", "partially_processed", "expired"];
  it("payments: refunds and authorizations have landed, so their statuses can happen; cancels cannot", () => {
    expect(possibleStatuses("payment").sort()).toEqual([...common, ...REFUNDS, ...AUTHORIZATIONS].sort());
  });
  it("payouts: cancels, no refunds", () => {
    expect(possibleStatuses("payout").sort()).toEqual([...common, ...CANCELS].sort());
  });
  it("either direction: both, and never terminated, which nothing moves an invoice to", () => {
    expect(possibleStatuses().sort()).toEqual([...common, ...REFUNDS, ...CANCELS, ...AUTHORIZATIONS].sort());
    expect(possibleStatuses()).not.toContain("terminated");
    expect(possibleStatuses()).toEqual(INVOICE_STATUSES.filter((status) => possibleStatuses().includes(status)));
  });
});

describe("resolutions", () => {
  it.each([
    ["processing", "processed", "ok"],
    ["processing", "process_failed", "issuer_decline"],
    ["created", "expired", "expired"],
    ["process_error", "process_failed", "unable_to_reconcile"],
    ["process_error", "process_pending", undefined],
    ["expired", "processed", "ok"],
  ] as const)("accepts %s → %s with %s", (from, to, resolution) => {
    expect(transition({ status: from, direction: "payment" }, to, resolution)).toBe(to);
  });

  it.each([
    ["processing", "processed", "issuer_decline"],
    ["processing", "process_failed", "ok"],
    ["created", "processing", "ok"],
    ["processing", "processed", "bogus" as Resolution],
  ] as const)("refuses %s → %s with %s", (from, to, resolution) => {
    expect(() => transition({ status: from, direction: "payment" }, to, resolution)).toThrow(IllegalTransitionError);
  });
});

describe("reconciliation gives up", () => {
  it.each(["payment", "payout"] as const)("lets a %s invoice stay process_error only to record unable_to_reconcile", (direction) => {
    expect(transition({ status: "process_error", direction }, "process_error", "unable_to_reconcile")).toBe("process_error");
    expect(() => transition({ status: "process_error", direction }, "process_error")).toThrow(/only to record resolution "unable_to_reconcile"/);
    expect(() => transition({ status: "process_error", direction }, "process_error", "general_error")).toThrow(IllegalTransitionError);
    expect(() => transition({ status: "process_error", direction }, "process_error", "expired")).toThrow(IllegalTransitionError);
  });

  it("keeps process_error out of the listed next statuses and never expires it", () => {
    expect(nextStatuses({ status: "process_error", direction: "payment" })).not.toContain("process_error");
    expect(canTransition({ status: "process_error", direction: "payment" }, "expired", "expired")).toBe(false);
  });

  it("allows no other status to stay where it is, whatever the resolution", () => {
    for (const status of INVOICE_STATUSES.filter((entry) => entry !== "process_error")) {
      expect(canTransition({ status, direction: "payment" }, status, "unable_to_reconcile")).toBe(false);
    }
  });

  it("expires an unpaid failed invoice with attempts left, never one whose attempts are used up", () => {
    expect(transition({ status: "process_failed", direction: "payment" }, "expired", "expired")).toBe("expired");
    expect(() => transition({ status: "process_failed", direction: "payout", attemptsExhausted: true }, "expired", "expired")).toThrow(/attempts limit/);
    expect(transition({ status: "process_pending", direction: "payment" }, "expired", "expired")).toBe("expired");
  });
});

describe("IllegalTransitionError", () => {
  it("names the move", () => {
    try {
      transition({ status: "expired", direction: "payout" }, "processing");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(IllegalTransitionError);
      expect(error).toMatchObject({ from: "expired", to: "processing", direction: "payout" });
      expect((error as Error).message).toContain("expired → processing");
    }
  });

  it("rejects unknown stored statuses", () => {
    expect(() => transition({ status: "bogus" as InvoiceStatus, direction: "payment" }, "processing")).toThrow(/unknown status/);
  });
});

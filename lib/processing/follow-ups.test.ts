import { describe, expect, it } from "vitest";
import { isPastReconcileDeadline, reconcileAt, reconcileDeadline } from "./follow-ups";
import { nextStepFrom } from "@/lib/retry-schedules";

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, 0) + seconds * 1000);
const started = at(0);

describe("reconcileAt (the status-request schedule)", () => {
  const farAway = { expiresAt: at(30 * 24 * 3600) };

  it("asks 10 s, 30 s, 2 min, 10 min after the attempt, then hourly", () => {
    expect(
      [0, 1, 2, 3, 4, 5].map((step) => (reconcileAt(farAway, { startedAt: started, status: "unknown" }, step, started).getTime() - started.getTime()) / 1000),
    ).toEqual([10, 30, 120, 600, 4200, 7800]);
  });

  it("never schedules a later request after the lifetime ends, so giving up happens on time", () => {
    const invoice = { expiresAt: at(300) };
    expect(reconcileAt(invoice, { startedAt: started, status: "unknown" }, 3, at(130))).toEqual(at(300));
  });

  it("always gives the first request its 10 s, even for an attempt at the last second of the lifetime", () => {
    expect(reconcileAt({ expiresAt: at(2) }, { startedAt: started, status: "unknown" }, 0, started)).toEqual(at(10));
  });

  it("gives a payment waiting at 3-D Secure its session (15 min from the attempt) even when the lifetime ends sooner", () => {
    const invoice = { expiresAt: at(60) };
    const waiting = { startedAt: started, status: "pending" as const };
    expect(reconcileDeadline(invoice, waiting)).toEqual(at(900));
    expect(reconcileAt(invoice, waiting, 2, at(31))).toEqual(at(120));
    expect(reconcileAt(invoice, waiting, 4, at(601))).toEqual(at(900));
    expect(isPastReconcileDeadline(invoice, waiting, at(899))).toBe(false);
    expect(isPastReconcileDeadline(invoice, { ...waiting, status: "unknown" }, at(61))).toBe(true);
    // A lifetime longer than the session decides.
    expect(reconcileDeadline({ expiresAt: at(3600) }, waiting)).toEqual(at(3600));
  });

  it("runs an overdue request now, never in the past", () => {
    expect(reconcileAt(farAway, { startedAt: started, status: "unknown" }, 1, at(500))).toEqual(at(500));
  });
});

describe("nextStepFrom (the sweep picks up the schedule where it stands)", () => {
  it.each([
    [0, 0],
    [9, 0],
    [10, 1],
    [45, 2],
    [599, 3],
    [600, 4],
    [4200, 5],
  ])("%i s after the attempt → step %i", (elapsed, step) => {
    expect(nextStepFrom(started, at(elapsed))).toBe(step);
  });
});

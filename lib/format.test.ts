import { describe, expect, it } from "vitest";
import { formatRelative } from "./format";

describe("formatRelative", () => {
  const now = new Date("2026-11-29T12:00:00Z");
  const at = (ms: number) => new Date(now.getTime() + ms);

  it("says just now within a minute of the past", () => {
    expect(formatRelative(at(-30_000), now)).toBe("just now");
    expect(formatRelative(at(30_000), now)).toBe("in less than a minute");
  });

  it("uses minutes, hours and days, rounded, in both directions", () => {
    expect(formatRelative(at(-3 * 60_000), now)).toBe("3 minutes ago");
    expect(formatRelative(at(24 * 3_600_000 - 5_000), now)).toBe("in 24 hours");
    expect(formatRelative(at(7 * 86_400_000), now)).toBe("in 7 days");
    expect(formatRelative(at(-86_400_000), now)).toBe("1 day ago");
  });
});

import { describe, expect, it } from "vitest";
import { formatDateTime, formatDateTimeParts, formatInZone, formatRelative, formatTimeLeft } from "./format";

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

describe("dates in the zone in force", () => {
  const at = "2026-07-01T22:30:00.000Z";

  it("stays UTC, named, without a zone", () => {
    expect(formatDateTime(at)).toBe("1 Jul 2026, 22:30 UTC");
    expect(formatDateTimeParts(at)).toEqual({ date: "1 Jul 2026", time: "22:30 UTC" });
  });

  it("writes the zone's clock and its short name then, across midnight and summer time", () => {
    expect(formatDateTime(at, "Europe/Berlin")).toBe("2 Jul 2026, 00:30 CEST");
    expect(formatDateTime("2026-12-01T22:30:00.000Z", "Europe/Berlin")).toBe("1 Dec 2026, 23:30 CET");
    expect(formatDateTimeParts(at, "Asia/Kolkata")).toEqual({ date: "2 Jul 2026", time: "04:00 GMT+5:30" });
    expect(formatInZone(at, "America/New_York", "second")).toBe("1 Jul 2026, 18:30:00 GMT-4");
  });
});

describe("formatTimeLeft", () => {
  const now = new Date("2026-12-01T10:00:00Z");
  const later = (ms: number) => new Date(now.getTime() + ms);
  it("names the two largest units of what is left", () => {
    expect(formatTimeLeft(later(6 * 86_400_000 + 23 * 3_600_000 + 59 * 60_000), now)).toBe("in 6 days 23 hours");
    expect(formatTimeLeft(later(86_400_000 + 5 * 60_000), now)).toBe("in 1 day");
    expect(formatTimeLeft(later(4 * 3_600_000 + 5 * 60_000), now)).toBe("in 4 hours 5 minutes");
    expect(formatTimeLeft(later(12 * 60_000 + 30_000), now)).toBe("in 12 minutes");
    expect(formatTimeLeft(later(30_000), now)).toBe("in less than a minute");
  });
  it("says when the moment has passed", () => {
    expect(formatTimeLeft(later(-1), now)).toBe("passed");
  });
});

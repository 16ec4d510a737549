import { describe, expect, it } from "vitest";
import { isoInTimeZone, isTimeZone, listTimeZones } from "./time-zones";

describe("times in a zone", () => {
  it("writes ISO 8601 with the zone's offset at that instant, winter and summer", () => {
    expect(isoInTimeZone(new Date("2026-12-06T01:13:05.120Z"), "Europe/Berlin")).toBe("2026-12-06T02:13:05.120+01:00");
    expect(isoInTimeZone(new Date("2026-07-01T12:00:00.000Z"), "Europe/Berlin")).toBe("2026-07-01T14:00:00.000+02:00");
    expect(isoInTimeZone(new Date("2026-07-01T12:00:00.000Z"), "America/New_York")).toBe("2026-07-01T08:00:00.000-04:00");
    expect(isoInTimeZone(new Date("2026-07-01T12:00:00.000Z"), "Asia/Kolkata")).toBe("2026-07-01T17:30:00.000+05:30");
    expect(isoInTimeZone(new Date("2026-07-01T23:59:59.999Z"), "UTC")).toBe("2026-07-01T23:59:59.999+00:00");
    // Across midnight into the previous day.
    expect(isoInTimeZone(new Date("2026-01-01T03:00:00.000Z"), "America/Los_Angeles")).toBe("2025-12-31T19:00:00.000-08:00");
  });

  it("knows the runtime's zones and refuses others", () => {
    expect(listTimeZones()[0]).toBe("UTC");
    expect(listTimeZones()).toContain("Europe/Berlin");
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { EARLIEST, LATEST } from "./dates";
import { dayInTimeZone, isoInTimeZone, isTimeZone, listTimeZones } from "./time-zones";

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

describe("a filter's day in a zone", () => {
  const span = (day: string, zone: string) => {
    const bounds = dayInTimeZone(day, zone);
    return bounds && [bounds.start.toISOString(), bounds.end.toISOString()];
  };

  it("runs from the zone's midnight to the next, 23 or 25 hours where the clocks change", () => {
    expect(span("2026-03-11", "Europe/Berlin")).toEqual(["2026-03-10T23:00:00.000Z", "2026-03-11T23:00:00.000Z"]);
    expect(span("2026-03-29", "Europe/Berlin")).toEqual(["2026-03-28T23:00:00.000Z", "2026-03-29T22:00:00.000Z"]);
    expect(span("2026-10-25", "Europe/Berlin")).toEqual(["2026-10-24T22:00:00.000Z", "2026-10-25T23:00:00.000Z"]);
    expect(span("2026-03-10", "America/New_York")).toEqual(["2026-03-10T04:00:00.000Z", "2026-03-11T04:00:00.000Z"]);
    expect(span("2026-03-10", "UTC")).toEqual(["2026-03-10T00:00:00.000Z", "2026-03-11T00:00:00.000Z"]);
  });

  it("stays within the dates a query takes, and refuses what is not a day there", () => {
    expect(dayInTimeZone("1970-01-01", "Europe/Berlin")?.start).toEqual(EARLIEST);
    expect(dayInTimeZone("9999-12-31", "America/New_York")?.end).toEqual(LATEST);
    expect(dayInTimeZone("9999-12-31", "Pacific/Kiritimati")?.end).toEqual(LATEST);
    for (const text of ["1969-12-31", "2024-02-30", "yesterday", ""]) expect(dayInTimeZone(text, "Europe/Berlin")).toBeUndefined();
  });
});

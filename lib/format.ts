import { DEFAULT_TIME_ZONE } from "@/lib/time-zones";

/**
 * Dashboard timestamps are written in the time zone in force for the viewer (lib/time-zones.ts
 * `timeZoneInForce`: the merchant's, UTC until chosen), passed in from the server so the server and
 * the browser render the same text. Each ends with the zone's short name at that instant ("UTC",
 * "CET", "GMT+5:30"), so a reader always knows which clock it is.
 */
type Style = "minute" | "second" | "date" | "time" | "clock" | "day";
const STYLES: Record<Style, Intl.DateTimeFormatOptions> = {
  minute: { dateStyle: "medium", timeStyle: "short" },
  second: { dateStyle: "medium", timeStyle: "medium" },
  date: { dateStyle: "medium" },
  time: { timeStyle: "short" },
  clock: { timeStyle: "medium" },
  day: { day: "numeric", month: "short" },
};
const formats = new Map<string, Intl.DateTimeFormat>();

function format(style: Style | "zone", zone: string): Intl.DateTimeFormat {
  const key = `${style} ${zone}`;
  let found = formats.get(key);
  if (!found) {
    const options: Intl.DateTimeFormatOptions = style === "zone" ? { timeZoneName: "short" } : STYLES[style];
    found = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: zone });
    formats.set(key, found);
  }
  return found;
}

/** The zone's short name at that instant: "UTC", "CET" / "CEST", "GMT+5:30", "GMT-5". */
function zoneName(at: Date, zone: string = DEFAULT_TIME_ZONE): string {
  return (
    format("zone", zone)
      .formatToParts(at)
      .find((part) => part.type === "timeZoneName")?.value ?? zone
  );
}

/** A moment in `style` in `zone`, followed by the zone's short name then. */
export function formatInZone(value: Date | string | number, zone: string = DEFAULT_TIME_ZONE, style: Style = "minute"): string {
  const at = new Date(value);
  return `${format(style, zone).format(at)} ${zoneName(at, zone)}`;
}

/** "29 Nov": the zone's day of that instant, for a chart's axis (the page names the zone). */
export function formatDay(value: Date | string, zone: string = DEFAULT_TIME_ZONE): string {
  return format("day", zone).format(new Date(value));
}

/** A timestamp as two short lines for narrow columns: "29 Nov 2026" and "04:19 UTC". */
export function formatDateTimeParts(value: Date | string, zone: string = DEFAULT_TIME_ZONE): { date: string; time: string } {
  const at = new Date(value);
  return { date: format("date", zone).format(at), time: formatInZone(at, zone, "time") };
}

/** "29 Nov 2026, 04:19 UTC" (or "29 Nov 2026, 09:49 GMT+5:30" for a merchant in Asia/Kolkata); "—" for none. */
export function formatDateTime(value: Date | string | null | undefined, zone: string = DEFAULT_TIME_ZONE): string {
  if (!value) return "—";
  return formatInZone(value, zone, "minute");
}

const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];
const relative = new Intl.RelativeTimeFormat("en-GB", { numeric: "always" });

/**
 * A moment relative to `now`: "3 minutes ago", "in 23 hours", "just now" within a minute; days
 * are the largest unit (a week is "7 days"). Pair it with formatDateTime as the exact time.
 */
export function formatRelative(value: Date | string, now: Date = new Date()): string {
  const difference = new Date(value).getTime() - now.getTime();
  const size = Math.abs(difference);
  for (const [unit, ms] of RELATIVE_UNITS) {
    if (size >= ms) return relative.format(Math.round(difference / ms), unit);
  }
  return difference < 0 ? "just now" : "in less than a minute";
}

/**
 * How long until `until`, in the two largest units: "in 6 days 23 hours", "in 4 hours 5 minutes",
 * "in 12 minutes", "in less than a minute"; "passed" once it has. For a deadline beside its date.
 */
export function formatTimeLeft(until: Date | string, now: Date = new Date()): string {
  const left = new Date(until).getTime() - now.getTime();
  if (left <= 0) return "passed";
  if (left < 60_000) return "in less than a minute";
  const counts: [string, number][] = [
    ["day", Math.floor(left / 86_400_000)],
    ["hour", Math.floor(left / 3_600_000) % 24],
    ["minute", Math.floor(left / 60_000) % 60],
  ];
  const first = counts.findIndex(([, count]) => count > 0);
  const words = counts
    .slice(first, first + 2)
    .filter(([, count]) => count > 0)
    .map(([unit, count]) => `${count} ${unit}${count === 1 ? "" : "s"}`);
  return `in ${words.join(" ")}`;
}

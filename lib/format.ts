const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

const dateOnly = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const timeOnly = new Intl.DateTimeFormat("en-GB", { timeStyle: "short", timeZone: "UTC" });

/** A timestamp as two short lines for narrow columns: "29 Nov 2026" and "04:19 UTC". */
export function formatDateTimeParts(value: Date | string): { date: string; time: string } {
  const at = new Date(value);
  return { date: dateOnly.format(at), time: `${timeOnly.format(at)} UTC` };
}

/** Dashboard timestamps, always UTC so server and browser render the same text. */
export function formatDateTime(value: Date | string | null | undefined): string {
  if (!value) return "—";
  return `${dateTime.format(new Date(value))} UTC`;
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

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

/**
 * The dates and times a URL, a form or a cursor may name, read in one place. Years 0000 and past
 * 9999 are valid ISO 8601 and JavaScript dates, but PostgreSQL refuses them as JavaScript writes
 * them (`0000-…`, `+010000-01-01T…`) and the request would fail with a 500, so every date or
 * cursor time is checked against this range before it reaches a query.
 */
export const EARLIEST = new Date(Date.UTC(1970, 0, 1));
export const LATEST = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999));
/** The range in words, for messages. */
export const DATE_RANGE_TEXT = "between 1970-01-01 and 9999-12-31";

const DAY_MS = 86_400_000;
const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function inDateRange(at: Date): boolean {
  const time = at.getTime();
  return !Number.isNaN(time) && time >= EARLIEST.getTime() && time <= LATEST.getTime();
}

/** A real calendar day written YYYY-MM-DD, in any year: 2024-02-30 is not one. */
export function isCalendarDay(text: string): boolean {
  if (!DAY_TEXT.test(text)) return false;
  const at = new Date(`${text}T00:00:00.000Z`);
  // 2024-02-30 rolls over to March: only a real day survives the round trip.
  return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(text);
}

/** A real calendar day written YYYY-MM-DD within the range, as its UTC midnight. */
export function parseDay(text: string): Date | undefined {
  if (!isCalendarDay(text)) return undefined;
  const at = new Date(`${text}T00:00:00.000Z`);
  return inDateRange(at) ? at : undefined;
}

/**
 * The exclusive end of the day that starts at `day`: the next midnight, or the range's last
 * instant for 9999-12-31 (whose next midnight is out of range; no row is made in that millisecond).
 */
export function dayEnd(day: Date): Date {
  return new Date(Math.min(day.getTime() + DAY_MS, LATEST.getTime()));
}

/** A cursor's time as milliseconds since 1970, when it is a whole number within the range. */
export function instantFromMs(ms: number): Date | undefined {
  if (!Number.isSafeInteger(ms)) return undefined;
  const at = new Date(ms);
  return inDateRange(at) ? at : undefined;
}

/** A cursor's time as `toISOString()` wrote it (milliseconds, UTC), within the range. */
export function parseIsoInstant(text: string): Date | undefined {
  if (!ISO_MS.test(text)) return undefined;
  const at = new Date(text);
  return inDateRange(at) && at.toISOString() === text ? at : undefined;
}

/**
 * Time zones, by their IANA names ("Europe/Berlin"), as the runtime's Intl knows them. Isomorphic
 * and pure. The zone in force decides how the dashboard's export writes times (the API's: the merchant's): ISO 8601 with the zone's offset
 * at that instant (summer and winter time included), which any spreadsheet or parser reads back to
 * the same instant.
 */

import { dayEnd, EARLIEST, LATEST, parseDay } from "./dates";

export const DEFAULT_TIME_ZONE = "UTC";

/**
 * The zone every date on the dashboard is shown in for this viewer: the person's own, else the
 * merchant's, else UTC. Pages read it on the server and pass it down (to client components as a
 * prop), so the server and the browser write the same text; the browser's own zone is never read
 * while rendering (Settings offers it as a button that fills the person's field).
 */
export function timeZoneInForce(viewer: { user?: { timeZone: string | null }; merchant: { timeZone: string | null } }): string {
  for (const zone of [viewer.user?.timeZone, viewer.merchant.timeZone]) if (zone && isTimeZone(zone)) return zone;
  return DEFAULT_TIME_ZONE;
}

/** Every zone this runtime can format in, UTC first. */
export function listTimeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [DEFAULT_TIME_ZONE, ...zones.filter((zone) => zone !== DEFAULT_TIME_ZONE)];
}

/** Whether `name` is a zone Intl accepts (its canonical spelling or an alias such as "Etc/UTC"). */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(zone, format);
  }
  return format;
}

const pad = (value: number, width = 2) => String(Math.abs(value)).padStart(width, "0");

function wallParts(at: Date, zone: string): Record<string, string> {
  return Object.fromEntries(
    partsFormat(zone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
}

/** The zone's offset from UTC at that instant, in whole minutes (Asia/Kolkata: 330). */
function zoneOffsetMinutes(at: Date, zone: string): number {
  const parts = wallParts(at, zone);
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((wall - (at.getTime() - at.getUTCMilliseconds())) / 60_000);
}

/** "2026-12-06": the zone's calendar date at that instant. */
export function dateInTimeZone(at: Date, zone: string): string {
  const parts = wallParts(at, zone);
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * The instant the zone's clock starts the day `date` (YYYY-MM-DD): 00:00 there, or the first moment
 * after it where summer time skips midnight. Days are 23 or 25 hours long where the clocks change.
 */
export function midnightInTimeZone(date: string, zone: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, day);
  const guess = wall - zoneOffsetMinutes(new Date(wall), zone) * 60_000;
  const at = wall - zoneOffsetMinutes(new Date(guess), zone) * 60_000;
  // A midnight the clocks skip: the day starts when they land.
  return dateInTimeZone(new Date(at), zone) === date ? new Date(at) : new Date(guess);
}

/** "2026-12-06T02:13:05.120+01:00": the instant as the zone's wall clock, with the zone's offset then. */
export function isoInTimeZone(at: Date, zone: string): string {
  const parts = wallParts(at, zone);
  const offsetMinutes = zoneOffsetMinutes(at, zone);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const offset = `${sign}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${pad(at.getUTCMilliseconds(), 3)}${offset}`;
}

const inRange = (at: Date) => new Date(Math.min(Math.max(at.getTime(), EARLIEST.getTime()), LATEST.getTime()));

/**
 * The instants a filter's day (YYYY-MM-DD, as a date input sends it) spans in `zone`: from the
 * zone's midnight to the next one (23 or 25 hours where the clocks change), kept within the dates a
 * query takes (lib/dates.ts). Undefined when the text is not a day in that range.
 */
export function dayInTimeZone(text: string, zone: string): { start: Date; end: Date } | undefined {
  const day = parseDay(text);
  if (!day) return undefined;
  const next = dayEnd(day);
  const end = next.getTime() === LATEST.getTime() ? LATEST : midnightInTimeZone(next.toISOString().slice(0, 10), zone);
  return { start: inRange(midnightInTimeZone(text, zone)), end: inRange(end) };
}

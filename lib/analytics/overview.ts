import { sql } from "drizzle-orm";
import { DATE_RANGE_TEXT, isCalendarDay, LATEST, parseDay } from "@/lib/dates";
import type { Db } from "@/lib/db/client";
import { DISPUTE_LOSS_STATUSES, type ConnectionHealth, type Resolution } from "@/lib/db/enums";
import type { Mode } from "@/lib/providers";
import { dateInTimeZone, DEFAULT_TIME_ZONE, midnightInTimeZone } from "@/lib/time-zones";
import { LATENCY_BUCKETS_MS } from "./rollups";

/**
 * The home page's overview for one merchant, mode and period, read from `overview_rollups` only
 * (never the invoices), so it costs the same at any number of invoices: two grouped queries over
 * the period's hours and one over the merchant's connections. Days are the viewer's zone's days
 * (lib/time-zones.ts `timeZoneInForce`): in UTC the day rows, in any other zone the hour rows summed
 * per local day (an hour belongs to the day it starts in; in a zone whose offset is not whole hours,
 * such as Asia/Kolkata, the day's first hour row is the first whole UTC hour after its midnight).
 */

// ---- Period ---------------------------------------------------------------------------------

const PERIOD_PRESETS = ["today", "7d", "30d", "custom"] as const;
type PeriodPreset = (typeof PERIOD_PRESETS)[number];
const MAX_PERIOD_DAYS = 366;

export type Period = {
  preset: PeriodPreset;
  /** Inclusive start, exclusive end, at midnight in `zone` (today: up to the next midnight). */
  from: Date;
  to: Date;
  /** The dates as the form shows them (YYYY-MM-DD, `to` inclusive). */
  fromText: string;
  toText: string;
  /** Trend points: per hour for one day, else per day. */
  granularity: "hour" | "day";
  label: string;
  /** The zone whose days these are (IANA name). */
  zone: string;
};

export type PeriodRead = { period: Period; problem?: { field: "period" | "from" | "to"; message: string } };

const DAY = 86_400_000;
const HOUR = 3_600_000;

const dateText = (at: Date) => at.toISOString().slice(0, 10);
/** A calendar date `days` later (YYYY-MM-DD), whatever the zone: dates, not instants. */
const addDays = (date: string, days: number) => dateText(new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY));

/** Why a custom period's date was not read, in the form's words. */
function dateProblem(name: "From" | "To", text: string): string {
  if (!text) return name === "From" ? "From: enter a start date." : "To: enter an end date.";
  const shown = text.slice(0, 40);
  return isCalendarDay(text) ? `${name} "${shown}" is not a date ${DATE_RANGE_TEXT}.` : `${name} "${shown}" is not a date (YYYY-MM-DD).`;
}

function preset(kind: Exclude<PeriodPreset, "custom">, now: Date, zone: string): Period {
  const today = dateInTimeZone(now, zone);
  const days = kind === "today" ? 1 : kind === "7d" ? 7 : 30;
  const fromText = addDays(today, -(days - 1));
  const from = midnightInTimeZone(fromText, zone);
  const to = midnightInTimeZone(addDays(today, 1), zone);
  const label = kind === "today" ? "Today" : `Last ${days} days`;
  return { preset: kind, from, to, fromText, toText: today, granularity: days === 1 ? "hour" : "day", label: `${label} (${zone})`, zone };
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

/**
 * The period from the page's query (`period`, and `from`/`to` as YYYY-MM-DD for custom), in days
 * of `zone` (the viewer's zone in force). Bad input never throws: the page shows the problem
 * (naming the field) over the last 7 days.
 */
export function readPeriod(query: Record<string, string | string[] | undefined>, now = new Date(), zone: string = DEFAULT_TIME_ZONE): PeriodRead {
  const asked = one(query.period) || "7d";
  const fallback = preset("7d", now, zone);
  if (!(PERIOD_PRESETS as readonly string[]).includes(asked)) {
    return { period: fallback, problem: { field: "period", message: `Period must be one of today, 7d, 30d or custom; got "${asked.slice(0, 40)}".` } };
  }
  if (asked !== "custom") return { period: preset(asked as Exclude<PeriodPreset, "custom">, now, zone) };
  const fromText = one(query.from);
  const toText = one(query.to);
  const from = parseDay(fromText);
  const to = parseDay(toText);
  if (!from) return { period: fallback, problem: { field: "from", message: dateProblem("From", fromText) } };
  if (!to) return { period: fallback, problem: { field: "to", message: dateProblem("To", toText) } };
  if (from > to) return { period: fallback, problem: { field: "from", message: `From (${fromText}) is after To (${toText}).` } };
  const days = (to.getTime() - from.getTime()) / DAY + 1;
  if (days > MAX_PERIOD_DAYS) return { period: fallback, problem: { field: "to", message: `The period is ${days} days; choose at most ${MAX_PERIOD_DAYS}.` } };
  return {
    period: {
      preset: "custom",
      from: midnightInTimeZone(fromText, zone),
      // The range's last day has no next midnight PostgreSQL can store (year 10000): its last instant ends it.
      to: toText === dateText(LATEST) ? LATEST : midnightInTimeZone(addDays(toText, 1), zone),
      fromText,
      toText,
      granularity: days === 1 ? "hour" : "day",
      label: `${fromText} to ${toText} (${zone})`,
      zone,
    },
  };
}

// ---- Read model -----------------------------------------------------------------------------

type Money = { currency: string; minor: bigint };

type CurrencyTotals = {
  currency: string;
  payments: { count: number; minor: bigint };
  payouts: { count: number; minor: bigint };
  refunds: { count: number; minor: bigint };
  /** Disputes lost or accepted (opened in the period): the money went back to the customers. */
  disputes: { count: number; minor: bigint };
  /** Payments less refunds, lost or accepted disputes, and payouts. */
  netMinor: bigint;
  /** Authorize now, capture later: money reserved and not captured yet (authorized, or a capture or void in progress), apart from payments. */
  authorized: { count: number; minor: bigint };
};

export type TrendPoint = { at: Date; processed: number; failed: number; rate: number | null };
export type DeclineReason = { resolution: Resolution | string; count: number };
type ConnectionFigures = {
  id: string;
  label: string;
  provider: string;
  deleted: boolean;
  health: ConnectionHealth;
  attempts: number;
  succeeded: number;
  rate: number | null;
  /** Disputes opened in the period of its payments, and per payment it took in the period (null without one). */
  disputes: number;
  disputeRate: number | null;
  /** Upper bound of the bucket holding the percentile, ms; null without measured attempts; Infinity past the last bound. */
  p50: number | null;
  p95: number | null;
  lastError: { at: Date; resolution: string | null; message: string | null } | null;
};

export type Overview = {
  totals: CurrencyTotals[];
  processed: number;
  failed: number;
  successRate: number | null;
  trend: TrendPoint[];
  declines: DeclineReason[];
  connections: ConnectionFigures[];
  recovered: { count: number; amounts: Money[] };
};

export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** The upper bound of the bucket where the cumulative count reaches `share` of the total. */
export function percentileOf(histogram: readonly number[], share: number): number | null {
  const total = histogram.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.ceil(total * share);
  let seen = 0;
  for (const [index, n] of histogram.entries()) {
    seen += n;
    if (seen >= rank) return LATENCY_BUCKETS_MS[index]!;
  }
  return LATENCY_BUCKETS_MS.at(-1)!;
}

type GroupRow = {
  source: "invoice" | "attempt" | "refund" | "dispute";
  direction: "payment" | "payout";
  connection_id: string;
  status: string;
  resolution: string;
  currency: string;
  count: string | number;
  amount: string;
  recovered: string | number;
  recovered_amount: string;
  latency: (string | number)[] | string;
};

/** Postgres arrays come back as arrays from postgres.js and from PGlite; text "{1,2}" just in case. */
function numbers(value: GroupRow["latency"]): number[] {
  if (Array.isArray(value)) return value.map(Number);
  return value.replace(/[{}]/g, "").split(",").filter(Boolean).map(Number);
}

/** The queries the overview runs, named, for the growth bench's timings and plans. */
export type OverviewPeriod = Pick<Period, "from" | "to" | "granularity" | "fromText" | "zone">;

/** Day rows are cut at UTC midnight: only UTC's days may read them. */
const readsDayRows = (period: OverviewPeriod) => period.granularity === "day" && period.zone === DEFAULT_TIME_ZONE;

export function overviewQueries(merchantId: string, mode: Mode, period: OverviewPeriod) {
  // Periods of UTC days read the day rows (a year is 365 rows per key instead of 8,760); today, and
  // the days of any other zone, read hours.
  const grain = readsDayRows(period) ? "day" : "hour";
  const where = sql`merchant_id = ${merchantId} and test_mode = ${mode === "test"} and grain = ${grain}
    and hour >= ${period.from.toISOString()}::timestamptz and hour < ${period.to.toISOString()}::timestamptz`;
  const latencySums = LATENCY_BUCKETS_MS.map((_, index) => sql.raw(`sum(latency[${index + 1}])`));
  return {
    groups: sql`select source, direction, connection_id, status, resolution, currency,
        sum(count) as count, sum(amount_minor) as amount, sum(recovered_count) as recovered, sum(recovered_amount_minor) as recovered_amount,
        array[${sql.join(latencySums, sql`, `)}] as latency
      from overview_rollups where ${where}
      group by source, direction, connection_id, status, resolution, currency`,
    trend: sql`select hour as at, status, sum(count) as count
      from overview_rollups where ${where} and source = 'invoice'
      group by hour, status order by hour`,
    connections: sql`select id, label, provider, deleted_at is not null as deleted, health, last_error_at, last_error_resolution, last_error_message
      from connections where merchant_id = ${merchantId} and mode = ${mode}`,
  };
}

export async function getOverview(db: Db, merchantId: string, mode: Mode, period: OverviewPeriod): Promise<Overview> {
  const queries = overviewQueries(merchantId, mode, period);
  const [groupsResult, trendResult, connectionsResult] = await Promise.all([
    db.execute(queries.groups),
    db.execute(queries.trend),
    db.execute(queries.connections),
  ]);
  const groups = rowsOf<GroupRow>(groupsResult);

  const totalsBy = new Map<string, CurrencyTotals>();
  const totalsOf = (currency: string) => {
    let entry = totalsBy.get(currency);
    if (!entry) {
      entry = {
        currency,
        payments: { count: 0, minor: 0n },
        payouts: { count: 0, minor: 0n },
        refunds: { count: 0, minor: 0n },
        disputes: { count: 0, minor: 0n },
        netMinor: 0n,
        authorized: { count: 0, minor: 0n },
      };
      totalsBy.set(currency, entry);
    }
    return entry;
  };
  let processed = 0;
  let failed = 0;
  const declines = new Map<string, number>();
  const perConnection = new Map<string, { attempts: number; succeeded: number; paid: number; latency: number[] }>();
  const disputesBy = new Map<string, number>();
  const recoveredBy = new Map<string, bigint>();
  let recoveredCount = 0;
  for (const row of groups) {
    const count = Number(row.count);
    const amount = BigInt(row.amount);
    if (row.source === "invoice") {
      if (row.status === "processed") {
        processed += count;
        const totals = totalsOf(row.currency);
        const bucket = row.direction === "payment" ? totals.payments : totals.payouts;
        bucket.count += count;
        bucket.minor += amount;
      } else if (row.status === "authorized") {
        // Reserved, not taken: neither a payment nor a failure yet.
        const totals = totalsOf(row.currency);
        totals.authorized.count += count;
        totals.authorized.minor += amount;
      } else failed += count;
    } else if (row.source === "refund") {
      const totals = totalsOf(row.currency);
      totals.refunds.count += count;
      totals.refunds.minor += amount;
    } else if (row.source === "dispute") {
      disputesBy.set(row.connection_id, (disputesBy.get(row.connection_id) ?? 0) + count);
      if ((DISPUTE_LOSS_STATUSES as readonly string[]).includes(row.status)) {
        const totals = totalsOf(row.currency);
        totals.disputes.count += count;
        totals.disputes.minor += amount;
      }
    } else if (row.resolution !== "canceled") {
      // An attempt the merchant canceled (a payout) is neither a decline nor an attempt that says anything about the provider.
      if (row.status !== "succeeded") declines.set(row.resolution, (declines.get(row.resolution) ?? 0) + count);
      const entry = perConnection.get(row.connection_id) ?? { attempts: 0, succeeded: 0, paid: 0, latency: LATENCY_BUCKETS_MS.map(() => 0) };
      entry.attempts += count;
      if (row.status === "succeeded") entry.succeeded += count;
      if (row.status === "succeeded" && row.direction === "payment") entry.paid += count;
      numbers(row.latency).forEach((n, index) => (entry.latency[index]! += n));
      perConnection.set(row.connection_id, entry);
      const recovered = Number(row.recovered);
      if (recovered > 0) {
        recoveredCount += recovered;
        recoveredBy.set(row.currency, (recoveredBy.get(row.currency) ?? 0n) + BigInt(row.recovered_amount));
      }
    }
  }
  for (const totals of totalsBy.values()) totals.netMinor = totals.payments.minor - totals.refunds.minor - totals.disputes.minor - totals.payouts.minor;

  // Every hour or day of the period, empty ones included, so the chart's axis is the period's: the
  // UTC hours from the first whole one, or the zone's days (23 or 25 hours where the clocks change).
  const starts: number[] = [];
  if (period.granularity === "hour") {
    for (let t = Math.ceil(period.from.getTime() / HOUR) * HOUR; t < period.to.getTime(); t += HOUR) starts.push(t);
  } else {
    // The range's last day (9999-12-31) has no next day to start.
    for (
      let day = period.fromText, t = period.from.getTime();
      t < period.to.getTime();
      day = addDays(day, 1), t = midnightInTimeZone(day, period.zone).getTime()
    ) {
      starts.push(t);
      if (day === dateText(LATEST)) break;
    }
  }
  const trend: TrendPoint[] = starts.map((t) => ({ at: new Date(t), processed: 0, failed: 0, rate: null }));
  let index = 0;
  for (const row of rowsOf<{ at: string | Date; status: string; count: string | number }>(trendResult)) {
    // The point whose hour or day the row's hour starts in (rows come in order of their hour).
    const t = new Date(row.at).getTime();
    while (index + 1 < starts.length && starts[index + 1]! <= t) index++;
    const point = trend[index];
    if (!point) continue;
    if (row.status === "processed") point.processed += Number(row.count);
    else if (row.status === "failed") point.failed += Number(row.count);
  }
  for (const point of trend) {
    const settled = point.processed + point.failed;
    point.rate = settled > 0 ? point.processed / settled : null;
  }

  type ConnectionRow = {
    id: string;
    label: string;
    provider: string;
    deleted: boolean;
    health: ConnectionHealth;
    last_error_at: string | Date | null;
    last_error_resolution: string | null;
    last_error_message: string | null;
  };
  const known = new Map(rowsOf<ConnectionRow>(connectionsResult).map((row) => [row.id, row]));
  const connections: ConnectionFigures[] = [];
  for (const [id, row] of known) {
    const figures = perConnection.get(id);
    // A deleted connection shows only when it has attempts in the period.
    if (row.deleted && !figures) continue;
    const attempts = figures?.attempts ?? 0;
    const succeeded = figures?.succeeded ?? 0;
    const disputes = disputesBy.get(id) ?? 0;
    connections.push({
      id,
      label: row.label,
      provider: row.provider,
      deleted: Boolean(row.deleted),
      health: row.health,
      attempts,
      succeeded,
      rate: attempts > 0 ? succeeded / attempts : null,
      disputes,
      disputeRate: (figures?.paid ?? 0) > 0 ? disputes / figures!.paid : null,
      p50: figures ? percentileOf(figures.latency, 0.5) : null,
      p95: figures ? percentileOf(figures.latency, 0.95) : null,
      lastError: row.last_error_at ? { at: new Date(row.last_error_at), resolution: row.last_error_resolution, message: row.last_error_message } : null,
    });
  }
  connections.sort((a, b) => b.attempts - a.attempts || a.label.localeCompare(b.label));

  return {
    totals: [...totalsBy.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    processed,
    failed,
    successRate: processed + failed > 0 ? processed / (processed + failed) : null,
    trend,
    declines: [...declines.entries()]
      .map(([resolution, count]) => ({ resolution, count }))
      .sort((a, b) => b.count - a.count || a.resolution.localeCompare(b.resolution)),
    connections,
    recovered: {
      count: recoveredCount,
      amounts: [...recoveredBy.entries()].map(([currency, minor]) => ({ currency, minor })).sort((a, b) => a.currency.localeCompare(b.currency)),
    },
  };
}

/** The connection page's dispute figures: over the last `days` UTC days (today included), from the rollups. */
export type ConnectionDisputeRate = { days: number; disputes: number; payments: number; rate: number | null };

export async function readConnectionDisputeRate(
  db: Db,
  merchantId: string,
  connection: { id: string; mode: Mode },
  days = 30,
  now = new Date(),
): Promise<ConnectionDisputeRate> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * 24 * HOUR);
  const [row] = rowsOf<{ disputes: string | number | null; payments: string | number | null }>(
    await db.execute(sql`select
        sum(count) filter (where source = 'dispute') as disputes,
        sum(count) filter (where source = 'attempt' and direction = 'payment' and status = 'succeeded') as payments
      from overview_rollups
      where merchant_id = ${merchantId} and test_mode = ${connection.mode === "test"} and grain = 'day'
        and hour >= ${since.toISOString()}::timestamptz and connection_id = ${connection.id}`),
  );
  const disputes = Number(row?.disputes ?? 0);
  const payments = Number(row?.payments ?? 0);
  return { days, disputes, payments, rate: payments > 0 ? disputes / payments : null };
}

import { sql } from "drizzle-orm";
import { DATE_RANGE_TEXT, dayEnd, isCalendarDay, parseDay } from "@/lib/dates";
import type { Db } from "@/lib/db/client";
import type { ConnectionHealth, Resolution } from "@/lib/db/enums";
import type { Mode } from "@/lib/providers";
import { LATENCY_BUCKETS_MS } from "./rollups";

/**
 * The home page's overview for one merchant, mode and period, read from `overview_rollups` only
 * (never the invoices), so it costs the same at any number of invoices: two grouped queries over
 * the period's hours and one over the merchant's connections. Hours and days are UTC.
 */

// ---- Period ---------------------------------------------------------------------------------

export const PERIOD_PRESETS = ["today", "7d", "30d", "custom"] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export const MAX_PERIOD_DAYS = 366;

export type Period = {
  preset: PeriodPreset;
  /** Inclusive start, exclusive end, at UTC midnight (today: up to the next midnight). */
  from: Date;
  to: Date;
  /** The dates as the form shows them (YYYY-MM-DD, `to` inclusive). */
  fromText: string;
  toText: string;
  /** Trend points: per hour for one day, else per day. */
  granularity: "hour" | "day";
  label: string;
};

export type PeriodRead = { period: Period; problem?: { field: "period" | "from" | "to"; message: string } };

const DAY = 86_400_000;
const dateText = (at: Date) => at.toISOString().slice(0, 10);
const midnight = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/** Why a custom period's date was not read, in the form's words. */
function dateProblem(name: "From" | "To", text: string): string {
  if (!text) return name === "From" ? "From: enter a start date." : "To: enter an end date.";
  const shown = text.slice(0, 40);
  return isCalendarDay(text) ? `${name} "${shown}" is not a date ${DATE_RANGE_TEXT}.` : `${name} "${shown}" is not a date (YYYY-MM-DD).`;
}

function preset(kind: Exclude<PeriodPreset, "custom">, now: Date): Period {
  const today = midnight(now);
  const days = kind === "today" ? 1 : kind === "7d" ? 7 : 30;
  const from = new Date(today.getTime() - (days - 1) * DAY);
  const to = new Date(today.getTime() + DAY);
  const label = kind === "today" ? "Today" : `Last ${days} days`;
  return { preset: kind, from, to, fromText: dateText(from), toText: dateText(today), granularity: days === 1 ? "hour" : "day", label: `${label} (UTC)` };
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() ?? "";

/**
 * The period from the page's query (`period`, and `from`/`to` as YYYY-MM-DD for custom). Bad
 * input never throws: the page shows the problem (naming the field) over the last 7 days.
 */
export function readPeriod(query: Record<string, string | string[] | undefined>, now = new Date()): PeriodRead {
  const asked = one(query.period) || "7d";
  const fallback = preset("7d", now);
  if (!(PERIOD_PRESETS as readonly string[]).includes(asked)) {
    return { period: fallback, problem: { field: "period", message: `Period must be one of today, 7d, 30d or custom; got "${asked.slice(0, 40)}".` } };
  }
  if (asked !== "custom") return { period: preset(asked as Exclude<PeriodPreset, "custom">, now) };
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
      from,
      to: dayEnd(to),
      fromText,
      toText,
      granularity: days === 1 ? "hour" : "day",
      label: `${fromText} to ${toText} (UTC)`,
    },
  };
}

// ---- Read model -----------------------------------------------------------------------------

export type Money = { currency: string; minor: bigint };

export type CurrencyTotals = {
  currency: string;
  payments: { count: number; minor: bigint };
  payouts: { count: number; minor: bigint };
  refunds: { count: number; minor: bigint };
  /** Payments less refunds less payouts. */
  netMinor: bigint;
};

export type TrendPoint = { at: Date; processed: number; failed: number; rate: number | null };
export type DeclineReason = { resolution: Resolution | string; count: number };
export type ConnectionFigures = {
  id: string;
  label: string;
  provider: string;
  deleted: boolean;
  health: ConnectionHealth;
  attempts: number;
  succeeded: number;
  rate: number | null;
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

function rowsOf<T>(result: unknown): T[] {
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
  source: "invoice" | "attempt" | "refund";
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
export function overviewQueries(merchantId: string, mode: Mode, period: Pick<Period, "from" | "to" | "granularity">) {
  // Periods of days read the day rows (a year is 365 rows per key instead of 8,760); today reads hours.
  const where = sql`merchant_id = ${merchantId} and test_mode = ${mode === "test"} and grain = ${period.granularity}
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

export async function getOverview(db: Db, merchantId: string, mode: Mode, period: Pick<Period, "from" | "to" | "granularity">): Promise<Overview> {
  const queries = overviewQueries(merchantId, mode, period);
  const [groupsResult, trendResult, connectionsResult] = await Promise.all([db.execute(queries.groups), db.execute(queries.trend), db.execute(queries.connections)]);
  const groups = rowsOf<GroupRow>(groupsResult);

  const totalsBy = new Map<string, CurrencyTotals>();
  const totalsOf = (currency: string) => {
    let entry = totalsBy.get(currency);
    if (!entry) {
      entry = { currency, payments: { count: 0, minor: 0n }, payouts: { count: 0, minor: 0n }, refunds: { count: 0, minor: 0n }, netMinor: 0n };
      totalsBy.set(currency, entry);
    }
    return entry;
  };
  let processed = 0;
  let failed = 0;
  const declines = new Map<string, number>();
  const perConnection = new Map<string, { attempts: number; succeeded: number; latency: number[] }>();
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
      } else failed += count;
    } else if (row.source === "refund") {
      const totals = totalsOf(row.currency);
      totals.refunds.count += count;
      totals.refunds.minor += amount;
    } else if (row.resolution !== "canceled") {
      // An attempt the merchant canceled (a payout) is neither a decline nor an attempt that says anything about the provider.
      if (row.status !== "succeeded") declines.set(row.resolution, (declines.get(row.resolution) ?? 0) + count);
      const entry = perConnection.get(row.connection_id) ?? { attempts: 0, succeeded: 0, latency: LATENCY_BUCKETS_MS.map(() => 0) };
      entry.attempts += count;
      if (row.status === "succeeded") entry.succeeded += count;
      numbers(row.latency).forEach((n, index) => (entry.latency[index]! += n));
      perConnection.set(row.connection_id, entry);
      const recovered = Number(row.recovered);
      if (recovered > 0) {
        recoveredCount += recovered;
        recoveredBy.set(row.currency, (recoveredBy.get(row.currency) ?? 0n) + BigInt(row.recovered_amount));
      }
    }
  }
  for (const totals of totalsBy.values()) totals.netMinor = totals.payments.minor - totals.refunds.minor - totals.payouts.minor;

  const trendBy = new Map<number, TrendPoint>();
  for (const row of rowsOf<{ at: string | Date; status: string; count: string | number }>(trendResult)) {
    const at = new Date(row.at);
    const point = trendBy.get(at.getTime()) ?? { at, processed: 0, failed: 0, rate: null };
    if (row.status === "processed") point.processed += Number(row.count);
    else point.failed += Number(row.count);
    trendBy.set(at.getTime(), point);
  }
  // Every hour or day of the period, empty ones included, so the chart's axis is the period's.
  const step = period.granularity === "hour" ? 3_600_000 : DAY;
  const trend: TrendPoint[] = [];
  for (let t = period.from.getTime(); t < period.to.getTime(); t += step) {
    const point = trendBy.get(t) ?? { at: new Date(t), processed: 0, failed: 0, rate: null };
    const settled = point.processed + point.failed;
    trend.push({ ...point, rate: settled > 0 ? point.processed / settled : null });
  }

  type ConnectionRow = { id: string; label: string; provider: string; deleted: boolean; health: ConnectionHealth; last_error_at: string | Date | null; last_error_resolution: string | null; last_error_message: string | null };
  const known = new Map(rowsOf<ConnectionRow>(connectionsResult).map((row) => [row.id, row]));
  const connections: ConnectionFigures[] = [];
  for (const [id, row] of known) {
    const figures = perConnection.get(id);
    // A deleted connection shows only when it has attempts in the period.
    if (row.deleted && !figures) continue;
    const attempts = figures?.attempts ?? 0;
    const succeeded = figures?.succeeded ?? 0;
    connections.push({
      id,
      label: row.label,
      provider: row.provider,
      deleted: Boolean(row.deleted),
      health: row.health,
      attempts,
      succeeded,
      rate: attempts > 0 ? succeeded / attempts : null,
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
    declines: [...declines.entries()].map(([resolution, count]) => ({ resolution, count })).sort((a, b) => b.count - a.count || a.resolution.localeCompare(b.resolution)),
    connections,
    recovered: { count: recoveredCount, amounts: [...recoveredBy.entries()].map(([currency, minor]) => ({ currency, minor })).sort((a, b) => a.currency.localeCompare(b.currency)) },
  };
}

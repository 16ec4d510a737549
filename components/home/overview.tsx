import { Link } from "@/components/link";
import type { ReactNode } from "react";
import { HealthBadge } from "@/components/connections/badges";
import type { DeclineReason, Overview, Period, PeriodRead, TrendPoint } from "@/lib/analytics/overview";
import { formatDateTime, formatDay, formatInZone } from "@/lib/format";
import { formatMoney } from "@/lib/money";
import type { Mode } from "@/lib/providers";

/**
 * The overview (server component, no client JavaScript): charts are SVG drawn here, each with
 * role="img", a label that says what it shows, and its table beside or behind it (<details>), so
 * screen readers and copying get the figures. Amounts in each currency's format (formatMoney),
 * counts and percentages in en-GB, hours, days and times in the period's zone (the viewer's zone in
 * force, lib/time-zones.ts), named on the page.
 */

const count = new Intl.NumberFormat("en-GB");
const percent = (share: number | null) => (share === null ? "—" : `${(share * 100).toFixed(1)}%`);
const ms = (value: number | null) => (value === null ? "—" : Number.isFinite(value) ? `≤ ${count.format(value)} ms` : "> 25,600 ms");

const REASON_LABELS: Record<string, string> = {
  issuer_decline: "Issuer decline",
  insufficient_funds: "Insufficient funds",
  invalid_cvv: "Invalid CVV",
  auth_3ds_failed: "3-D Secure failed",
  expired: "Expired",
  provider_unavailable: "Provider unavailable",
  provider_auth_error: "Provider refused the credentials",
  unable_to_reconcile: "Unable to reconcile",
  mode_mismatch: "Test/live mismatch",
  general_error: "General error",
  canceled: "Canceled by you",
  "": "No reason given",
};
const reasonLabel = (resolution: string) => REASON_LABELS[resolution] ?? resolution.replaceAll("_", " ");

const pointLabel = (at: Date, period: Pick<Period, "granularity" | "zone">) =>
  period.granularity === "hour" ? formatInZone(at, period.zone, "time") : formatDay(at, period.zone);

export function PeriodForm({ read, mode }: { read: PeriodRead; mode: Mode }) {
  const { period, problem } = read;
  const invalid = (field: string) => (problem?.field === field ? { "aria-invalid": true, "aria-describedby": "period-problem" } : {});
  return (
    <form method="get" action="/home" className="flex flex-wrap items-end gap-3" aria-label="Overview period">
      <div>
        <label htmlFor="period" className="block text-sm font-medium">
          Period
        </label>
        {/* A problem with the dates keeps Custom chosen; an unknown period asks for a choice. */}
        <select
          id="period"
          name="period"
          defaultValue={problem ? (problem.field === "period" ? "" : "custom") : period.preset}
          className="input mt-1"
          {...invalid("period")}
        >
          {problem?.field === "period" ? <option value="">Choose…</option> : null}
          <option value="today">Today</option>
          <option value="7d">Last 7 days</option>
          <option value="30d">Last 30 days</option>
          <option value="custom">Custom dates</option>
        </select>
      </div>
      <div>
        <label htmlFor="from" className="block text-sm font-medium">
          From (custom)
        </label>
        <input id="from" name="from" type="date" defaultValue={period.preset === "custom" ? period.fromText : ""} className="input mt-1" {...invalid("from")} />
      </div>
      <div>
        <label htmlFor="to" className="block text-sm font-medium">
          To (custom)
        </label>
        <input id="to" name="to" type="date" defaultValue={period.preset === "custom" ? period.toText : ""} className="input mt-1" {...invalid("to")} />
      </div>
      <button type="submit" className="btn-secondary">
        Show
      </button>
      <p className="w-full text-sm text-slate-600" data-testid="overview-period">
        {mode === "test" ? "Test" : "Live"} data · {period.label} · hours and days in {period.zone}
      </p>
      {problem ? (
        <p id="period-problem" role="alert" className="w-full rounded-md bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="period-problem">
          {problem.message} Showing the last 7 days instead.
        </p>
      ) : null}
    </form>
  );
}

/**
 * A table wider than a phone: it scrolls sideways inside its own region (reachable with the keyboard),
 * and below md a visible line says so, since a phone shows no scroll bar until one scrolls.
 */
function WideTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <p className="mb-1 text-xs text-slate-600 md:hidden" aria-hidden="true" data-testid="scroll-hint">
        Scroll sideways for every column →
      </p>
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={label}>
        {children}
      </div>
    </div>
  );
}

function Totals({ overview }: { overview: Overview }) {
  if (overview.totals.length === 0) return <p className="text-sm text-slate-600">Nothing processed in this period.</p>;
  return (
    <WideTable label="Processed volume table (scrolls sideways on narrow screens)">
      <table className="w-full text-left text-sm" data-testid="overview-totals">
        <caption className="sr-only">Processed volume per currency</caption>
        <thead className="text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              Currency
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Payments
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Authorized, not captured
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Payouts
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Refunds
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Disputes lost
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Net
            </th>
          </tr>
        </thead>
        <tbody>
          {overview.totals.map((row) => (
            <tr key={row.currency} className="border-t border-slate-100 align-top">
              <th scope="row" className="py-2 pr-3 font-mono font-medium">
                {row.currency}
              </th>
              <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                {formatMoney(row.payments.minor, row.currency)}
                <span className="block text-xs text-slate-600">{count.format(row.payments.count)} processed</span>
              </td>
              <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap" data-testid="overview-authorized">
                {formatMoney(row.authorized.minor, row.currency)}
                <span className="block text-xs text-slate-600">{count.format(row.authorized.count)} held</span>
              </td>
              <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                {formatMoney(row.payouts.minor, row.currency)}
                <span className="block text-xs text-slate-600">{count.format(row.payouts.count)} processed</span>
              </td>
              <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                {formatMoney(row.refunds.minor, row.currency)}
                <span className="block text-xs text-slate-600">{count.format(row.refunds.count)} succeeded</span>
              </td>
              <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap" data-testid="overview-disputes">
                {formatMoney(row.disputes.minor, row.currency)}
                <span className="block text-xs text-slate-600">{count.format(row.disputes.count)} lost or accepted</span>
              </td>
              <td className="py-2 text-right font-semibold tabular-nums whitespace-nowrap">{formatMoney(row.netMinor, row.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-600">
        Net = payments − refunds − disputes lost or accepted − payouts. Authorized money is reserved, not taken: it counts in payments once captured. Invoices
        count in the hour they were created.
      </p>
    </WideTable>
  );
}

/** Success rate per hour or day as a line over the settled volume as bars; gaps where nothing settled. */
function TrendChart({ trend, period }: { trend: TrendPoint[]; period: Pick<Period, "granularity" | "zone"> }) {
  const { granularity } = period;
  const width = 600;
  const height = 160;
  const n = Math.max(trend.length, 1);
  const slot = width / n;
  const maxSettled = Math.max(1, ...trend.map((p) => p.processed + p.failed));
  const yOf = (rate: number) => height - 6 - rate * (height - 12);
  const segments: string[][] = [];
  let current: string[] = [];
  trend.forEach((point, i) => {
    if (point.rate === null) {
      if (current.length) segments.push(current);
      current = [];
      return;
    }
    const x = (i + 0.5) * slot;
    const y = yOf(point.rate);
    // A lone point still shows: a short level stroke across its slot.
    current.push(`${(x - slot * 0.45).toFixed(1)},${y.toFixed(1)}`, `${(x + slot * 0.45).toFixed(1)},${y.toFixed(1)}`);
  });
  if (current.length) segments.push(current);
  const settled = trend.filter((p) => p.rate !== null);
  const label =
    settled.length === 0
      ? "Success rate over the period: nothing settled."
      : `Success rate per ${granularity}: from ${percent(Math.min(...settled.map((p) => p.rate!)))} to ${percent(Math.max(...settled.map((p) => p.rate!)))}; the table below lists every ${granularity}.`;
  const ticks = [trend[0], trend[Math.floor(trend.length / 2)], trend.at(-1)].filter((p, i, all): p is TrendPoint => Boolean(p) && all.indexOf(p) === i);
  return (
    <figure>
      <div className="flex gap-2">
        <div className="flex h-40 flex-col justify-between text-xs text-slate-600 tabular-nums" aria-hidden="true">
          <span>100%</span>
          <span>50%</span>
          <span>0%</span>
        </div>
        <svg
          role="img"
          aria-label={label}
          viewBox={`0 0 ${width} ${height}`}
          preserveAspectRatio="none"
          className="h-40 w-full rounded border border-slate-200 bg-white"
          data-testid="trend-chart"
        >
          {[0, 0.5, 1].map((rate) => (
            <line key={rate} x1="0" x2={width} y1={yOf(rate)} y2={yOf(rate)} stroke="#e2e8f0" strokeWidth="1" vectorEffect="non-scaling-stroke" />
          ))}
          {trend.map((point, i) => {
            const total = point.processed + point.failed;
            if (total === 0) return null;
            const h = (total / maxSettled) * (height - 12);
            return <rect key={i} x={i * slot + slot * 0.15} width={slot * 0.7} y={height - h} height={h} fill="#e2e8f0" />;
          })}
          {segments.map((points, i) => (
            <polyline key={i} points={points.join(" ")} fill="none" stroke="#047857" strokeWidth="3" strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
          ))}
        </svg>
      </div>
      <div className="ml-9 flex justify-between text-xs text-slate-600" aria-hidden="true">
        {ticks.map((p) => (
          <span key={p.at.toISOString()}>{pointLabel(p.at, period)}</span>
        ))}
      </div>
      <figcaption className="mt-1 text-xs text-slate-600">
        Green line: share of settled invoices that were processed. Grey bars: how many settled (tallest = {count.format(maxSettled)}).
      </figcaption>
      <details className="mt-2" data-testid="trend-table">
        <summary className="cursor-pointer text-sm font-medium text-brand-700">Show the trend as a table</summary>
        <div className="mt-2 max-h-80 overflow-auto" tabIndex={0} role="region" aria-label="Trend table (scrolls)">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Success rate per {granularity}</caption>
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {period.granularity === "hour" ? `Hour (${period.zone})` : `Day (${period.zone})`}
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  Processed
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-medium">
                  Failed
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Success rate
                </th>
              </tr>
            </thead>
            <tbody>
              {trend.map((p) => (
                <tr key={p.at.toISOString()} className="border-t border-slate-100">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {pointLabel(p.at, period)}
                  </th>
                  <td className="py-1 pr-3 text-right tabular-nums">{count.format(p.processed)}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{count.format(p.failed)}</td>
                  <td className="py-1 text-right tabular-nums">{percent(p.rate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

function DeclinesChart({ declines }: { declines: DeclineReason[] }) {
  if (declines.length === 0) return <p className="text-sm text-slate-600">No declined or failed attempts in this period.</p>;
  const max = Math.max(...declines.map((d) => d.count));
  const total = declines.reduce((sum, d) => sum + d.count, 0);
  const label = `Declines by reason: ${declines.map((d) => `${reasonLabel(d.resolution)} ${count.format(d.count)}`).join(", ")}.`;
  return (
    <figure>
      <div role="img" aria-label={label} className="space-y-2" data-testid="declines-chart">
        {declines.map((d) => (
          <div key={d.resolution} className="grid grid-cols-[minmax(7rem,11rem)_1fr_auto] items-center gap-2 text-sm">
            <span className="truncate" title={reasonLabel(d.resolution)}>
              {reasonLabel(d.resolution)}
            </span>
            <svg viewBox="0 0 100 10" preserveAspectRatio="none" className="h-3 w-full" aria-hidden="true">
              <rect x="0" y="0" width="100" height="10" fill="#f1f5f9" />
              <rect x="0" y="0" width={Math.max(1, (d.count / max) * 100)} height="10" fill="#b91c1c" />
            </svg>
            <span className="tabular-nums">{count.format(d.count)}</span>
          </div>
        ))}
      </div>
      <details className="mt-3" data-testid="declines-table">
        <summary className="cursor-pointer text-sm font-medium text-brand-700">Show the declines as a table</summary>
        <table className="mt-2 w-full text-left text-sm">
          <caption className="sr-only">Declined and failed attempts by reason</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                Reason
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                Attempts
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Share
              </th>
            </tr>
          </thead>
          <tbody>
            {declines.map((d) => (
              <tr key={d.resolution} className="border-t border-slate-100">
                <th scope="row" className="py-1 pr-3 font-normal">
                  {reasonLabel(d.resolution)} <code className="font-mono text-xs text-slate-600">{d.resolution}</code>
                </th>
                <td className="py-1 pr-3 text-right tabular-nums">{count.format(d.count)}</td>
                <td className="py-1 text-right tabular-nums">{percent(d.count / total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

function ConnectionsTable({ overview, zone, linkConnections }: { overview: Overview; zone: string; linkConnections: boolean }) {
  if (overview.connections.length === 0) return <p className="text-sm text-slate-600">No connections in this mode yet.</p>;
  return (
    <WideTable label="Connections table (scrolls sideways on narrow screens)">
      <table className="w-full text-left text-sm" data-testid="overview-connections">
        <caption className="sr-only">Attempts, success rate, dispute rate and provider latency per connection</caption>
        <thead className="text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              Connection
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Health
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Attempts
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Success
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Dispute rate
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              p50
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              p95
            </th>
            <th scope="col" className="py-2 font-medium">
              Last error
            </th>
          </tr>
        </thead>
        <tbody>
          {overview.connections.map((c) => (
            <tr key={c.id} className="border-t border-slate-100 align-top">
              <th scope="row" className="py-2 pr-3 font-normal">
                {c.deleted ? (
                  <span>{c.label} (deleted)</span>
                ) : !linkConnections ? (
                  <span>{c.label}</span>
                ) : (
                  <Link href={`/connections/${c.id}`} className="font-medium text-brand-700 underline">
                    {c.label}
                  </Link>
                )}
                <span className="block text-xs text-slate-600">{c.provider}</span>
              </th>
              <td className="py-2 pr-3">
                <HealthBadge health={c.health} />
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">{count.format(c.attempts)}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{percent(c.rate)}</td>
              <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">
                {percent(c.disputeRate)}
                <span className="block text-xs text-slate-600">{count.format(c.disputes)} disputed</span>
              </td>
              <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">{ms(c.p50)}</td>
              <td className="py-2 pr-3 text-right tabular-nums whitespace-nowrap">{ms(c.p95)}</td>
              <td className="min-w-48 py-2 text-xs">
                {c.lastError ? (
                  <>
                    {formatDateTime(c.lastError.at, zone)}
                    <span className="block">
                      {c.lastError.resolution ? reasonLabel(c.lastError.resolution) : "Unknown outcome"}
                      {c.lastError.message ? `: ${c.lastError.message}` : ""}
                    </span>
                  </>
                ) : (
                  "None"
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-600">
        Success: succeeded attempts of settled ones. Dispute rate: disputes opened in the period per payment the connection took. Latency: the provider&apos;s
        answer time, as the upper bound of its histogram bucket (25 ms doubling to 25.6 s).
      </p>
    </WideTable>
  );
}

/** `linkConnections`: the viewer may open connection pages (connections.write); others see the names only. */
export function OverviewSections({ overview, period, linkConnections = true }: { overview: Overview; period: Period; linkConnections?: boolean }) {
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-2" data-testid="overview">
      <section className="card min-w-0" aria-labelledby="overview-volume">
        <h3 id="overview-volume" className="mb-3 text-base font-semibold">
          Processed volume
        </h3>
        <Totals overview={overview} />
      </section>
      <section className="card min-w-0" aria-labelledby="overview-recovered">
        <h3 id="overview-recovered" className="text-base font-semibold">
          Recovered by cascading
        </h3>
        <p className="mt-1 text-sm text-slate-600">Payments and payouts that succeeded on a later connection after a soft failure on an earlier one.</p>
        <p className="mt-3 text-3xl font-semibold tabular-nums" data-testid="recovered-count">
          {count.format(overview.recovered.count)}
        </p>
        <ul className="mt-1 text-sm tabular-nums" data-testid="recovered-amounts">
          {overview.recovered.amounts.length === 0 ? <li className="text-slate-600">No amount recovered in this period.</li> : null}
          {overview.recovered.amounts.map((m) => (
            <li key={m.currency}>{formatMoney(m.minor, m.currency)}</li>
          ))}
        </ul>
      </section>
      <section className="card min-w-0" aria-labelledby="overview-success">
        <h3 id="overview-success" className="text-base font-semibold">
          Success rate
        </h3>
        <p className="mt-1 text-sm text-slate-600">
          <span className="text-2xl font-semibold text-slate-900 tabular-nums" data-testid="success-rate">
            {percent(overview.successRate)}
          </span>{" "}
          processed of {count.format(overview.processed + overview.failed)} {overview.processed + overview.failed === 1 ? "invoice" : "invoices"} that reached a
          provider and settled ({count.format(overview.processed)} processed, {count.format(overview.failed)} failed).
        </p>
        <div className="mt-3">
          <TrendChart trend={overview.trend} period={period} />
        </div>
      </section>
      <section className="card min-w-0" aria-labelledby="overview-declines">
        <h3 id="overview-declines" className="mb-3 text-base font-semibold">
          Declines by reason
        </h3>
        <DeclinesChart declines={overview.declines} />
      </section>
      <section className="card min-w-0 xl:col-span-2" aria-labelledby="overview-connections-heading">
        <h3 id="overview-connections-heading" className="mb-3 text-base font-semibold">
          Providers and connections
        </h3>
        <ConnectionsTable overview={overview} zone={period.zone} linkConnections={linkConnections} />
      </section>
    </div>
  );
}

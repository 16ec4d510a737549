import type { Metadata } from "next";
import { Link } from "@/components/link";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format";
import { canInMode } from "@/lib/identity/permissions";
import { readRequestLogFilter, STATUS_CLASSES, type RequestLogFilter } from "@/lib/request-log/filters";
import { listRequestLog, listRequestLogKeys } from "@/lib/request-log/read";
import { requestLogDays } from "@/lib/request-log/sweep";
import { timeZoneInForce } from "@/lib/time-zones";

export const metadata: Metadata = { title: "Logs" };

function query(filter: RequestLogFilter, after?: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, after })) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `/logs?${text}` : "/logs";
}

function statusTone(status: number): string {
  if (status >= 500) return "bg-red-50 text-red-800 ring-red-200";
  if (status >= 400) return "bg-amber-50 text-amber-900 ring-amber-200";
  return "bg-emerald-50 text-emerald-800 ring-emerald-200";
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return (
    <p id={id} className="field-error">
      {message}
    </p>
  );
}

/**
 * Every request to the invoice and management APIs made with one of the merchant's keys, newest
 * first, in keyset pages; filters in the URL (a GET form). Owners read both modes (the Test/Live
 * view's, or the one a link names), support test mode only.
 */
export default async function LogsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await requirePageViewer("logs.read");
  const zone = timeZoneInForce(viewer);
  const { filter, errors } = readRequestLogFilter(await searchParams);
  const wanted = filter.mode ?? (await getViewMode());
  const mode = canInMode(viewer.user.role, "logs.read", wanted) ? wanted : "test";
  const db = await getDb();
  const [{ entries, nextCursor }, keys] = await Promise.all([
    listRequestLog(db, viewer.merchant.id, mode, filter, zone),
    listRequestLogKeys(db, viewer.merchant.id, mode),
  ]);
  const { after, ...shown } = filter;
  const filtered = Boolean(shown.status || shown.path || shown.key || shown.invoice || shown.from || shown.to);
  return (
    <>
      <PageHeader
        title="Logs"
        description={`Requests to the invoice and management APIs made with your ${mode} API keys, newest first, kept ${requestLogDays()} days. Card numbers, card codes and secrets are removed from the bodies. Times in ${zone}.`}
      />
      {mode !== wanted ? (
        <p role="status" className="mb-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="logs-test-only">
          Your role reads test-mode requests only: these are the test ones.
        </p>
      ) : null}
      <form method="get" action="/logs" className="card mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:items-end" aria-label="Filter the request log">
        {filter.mode ? <input type="hidden" name="mode" value={filter.mode} /> : null}
        <div>
          <label htmlFor="logs-status" className="label">
            Status
          </label>
          <select
            id="logs-status"
            name="status"
            defaultValue={filter.status ?? ""}
            className="input mt-1"
            aria-describedby="logs-status-error"
            aria-invalid={errors.status ? true : undefined}
          >
            <option value="">Any</option>
            {STATUS_CLASSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
          <FieldError id="logs-status-error" message={errors.status} />
        </div>
        <div>
          <label htmlFor="logs-path" className="label">
            Path contains
          </label>
          <input
            id="logs-path"
            name="path"
            defaultValue={filter.path ?? ""}
            placeholder="/api/commerce/payment-invoices"
            className="input mt-1"
            aria-describedby="logs-path-error"
            aria-invalid={errors.path ? true : undefined}
          />
          <FieldError id="logs-path-error" message={errors.path} />
        </div>
        <div>
          <label htmlFor="logs-key" className="label">
            API key
          </label>
          <select
            id="logs-key"
            name="key"
            defaultValue={filter.key ?? ""}
            className="input mt-1"
            aria-describedby="logs-key-error"
            aria-invalid={errors.key ? true : undefined}
          >
            <option value="">Any key</option>
            {keys.map((key) => (
              <option key={key.id} value={key.id}>
                {key.label}
              </option>
            ))}
          </select>
          <FieldError id="logs-key-error" message={errors.key} />
        </div>
        <div>
          <label htmlFor="logs-invoice" className="label">
            Invoice
          </label>
          <input
            id="logs-invoice"
            name="invoice"
            defaultValue={filter.invoice ?? ""}
            placeholder="cpi_…"
            className="input mt-1 font-mono"
            aria-describedby="logs-invoice-error"
            aria-invalid={errors.invoice ? true : undefined}
          />
          <FieldError id="logs-invoice-error" message={errors.invoice} />
        </div>
        <div>
          <label htmlFor="logs-from" className="label">
            From (days in {zone})
          </label>
          <input
            id="logs-from"
            name="from"
            type="date"
            defaultValue={filter.from ?? ""}
            className="input mt-1"
            aria-describedby="logs-from-error"
            aria-invalid={errors.from ? true : undefined}
          />
          <FieldError id="logs-from-error" message={errors.from} />
        </div>
        <div>
          <label htmlFor="logs-to" className="label">
            To (days in {zone})
          </label>
          <input
            id="logs-to"
            name="to"
            type="date"
            defaultValue={filter.to ?? ""}
            className="input mt-1"
            aria-describedby="logs-to-error"
            aria-invalid={errors.to ? true : undefined}
          />
          <FieldError id="logs-to-error" message={errors.to} />
        </div>
        <div className="flex flex-wrap gap-3 pb-6">
          <button type="submit" className="btn-primary">
            Filter
          </button>
          {filtered ? (
            <Link href={filter.mode ? `/logs?mode=${filter.mode}` : "/logs"} className="btn-secondary">
              Clear
            </Link>
          ) : null}
        </div>
      </form>
      {errors.after ? (
        <p role="status" className="mb-4 text-sm text-amber-900">
          {errors.after}: showing the newest requests.
        </p>
      ) : null}
      {entries.length === 0 ? (
        <p className="card text-sm text-slate-700" data-testid="logs-empty">
          {filtered || after
            ? `No ${mode} request matches this filter.`
            : `No ${mode} request yet. Requests made with your ${mode} API keys appear here within a second.`}
        </p>
      ) : (
        <div className="card p-0">
          <div
            className="hidden grid-cols-[11rem_4rem_1fr_4rem_5rem_10rem] gap-4 border-b border-slate-200 px-4 py-2 text-xs font-semibold tracking-wide text-slate-600 uppercase md:grid"
            aria-hidden="true"
          >
            <span>When</span>
            <span>Method</span>
            <span>Path</span>
            <span>Status</span>
            <span>Time</span>
            <span>Key</span>
          </div>
          <ol className="divide-y divide-slate-100" data-testid="logs-list" aria-label="Requests, newest first">
            {entries.map((entry) => (
              <li key={entry.id} className="grid gap-1 px-4 py-3 text-sm md:grid-cols-[11rem_4rem_1fr_4rem_5rem_10rem] md:gap-4" data-testid="logs-row">
                <span className="text-slate-600">
                  <time dateTime={entry.createdAt.toISOString()}>{formatDateTime(entry.createdAt, zone)}</time>
                </span>
                <span className="font-mono text-xs font-semibold">{entry.method}</span>
                <span className="min-w-0 font-mono text-xs wrap-anywhere">
                  <Link href={`/logs/${entry.id}`} className="text-brand-700 underline">
                    <span className="sr-only">{`${entry.method} `}</span>
                    {entry.path}
                    <span className="sr-only">{`, ${entry.status}`}</span>
                  </Link>
                </span>
                <span>
                  <span className={`rounded px-1.5 py-0.5 font-mono text-xs ring-1 ${statusTone(entry.status)}`}>{entry.status}</span>
                </span>
                <span className="text-slate-700 tabular-nums">{entry.durationMs} ms</span>
                <span className="font-mono text-xs text-slate-700">
                  {entry.keyPrefix}…{entry.keyLastFour}
                </span>
              </li>
            ))}
          </ol>
        </div>
      )}
      {after || nextCursor ? (
        <nav className="mt-4 flex flex-wrap gap-3" aria-label="Log pages">
          {after ? (
            <Link href={query(shown)} className="btn-secondary">
              Newest
            </Link>
          ) : null}
          {nextCursor ? (
            <Link href={query(shown, nextCursor)} className="btn-secondary">
              Older
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

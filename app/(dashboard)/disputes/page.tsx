import type { Metadata } from "next";
import { Link } from "@/components/link";
import { DisputeStatusBadge } from "@/components/disputes/dispute-badges";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { listConnections } from "@/lib/connections/queries";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";
import { DISPUTE_STATUS_LABELS, DISPUTE_STATUSES } from "@/lib/disputes/contract";
import { readDisputePageQuery, type DisputePageFilters } from "@/lib/disputes/dashboard-query";
import { listDisputes, listOpenDisputesByDeadline } from "@/lib/disputes/list";
import type { DisputeRow } from "@/lib/disputes/store";
import { formatDateTime, formatTimeLeft } from "@/lib/format";
import { can } from "@/lib/identity/permissions";
import { formatMoney } from "@/lib/money";
import { timeZoneInForce } from "@/lib/time-zones";

export const metadata: Metadata = { title: "Disputes" };

const FILTER_WORDS: Record<string, string> = { status: "status", connection: "connection", due_before: "deadline before", after: "page position" };

function search(filters: DisputePageFilters, after?: string | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value && key !== "after") params.set(key, value);
  if (after) params.set("after", after);
  return params.toString();
}

function Deadline({ row, timeZone, now }: { row: DisputeRow; timeZone: string; now: Date }) {
  const open = row.status === "needs_response" && !row.submittedAt && !row.acceptedAt;
  return (
    <span className="block">
      <span className="block">{formatDateTime(row.evidenceDueBy, timeZone)}</span>
      {open ? <span className="block text-xs font-medium text-amber-900">{`Due ${formatTimeLeft(row.evidenceDueBy, now)}`}</span> : null}
    </span>
  );
}

function DisputeTable({ rows, timeZone, label, labels, now }: { rows: DisputeRow[]; timeZone: string; label: string; labels: Map<string, string>; now: Date }) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className="w-full text-left text-sm" aria-label={label}>
        <thead className="bg-slate-50 text-xs uppercase text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2">
              Dispute
            </th>
            <th scope="col" className="px-3 py-2">
              Amount
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
            <th scope="col" className="px-3 py-2">
              Evidence due
            </th>
            <th scope="col" className="px-3 py-2 max-md:hidden">
              Connection
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-t border-slate-100 align-top" data-testid="dispute-row">
              <td className="px-3 py-2">
                <Link href={`/disputes/${row.id}`} className="font-mono text-xs text-brand-700 underline wrap-anywhere">
                  {row.id}
                </Link>
              </td>
              <td className="px-3 py-2 tabular-nums whitespace-nowrap">{formatMoney(row.amount, row.currency)}</td>
              <td className="px-3 py-2">
                <DisputeStatusBadge status={row.status} />
              </td>
              <td className="px-3 py-2">
                <Deadline row={row} timeZone={timeZone} now={now} />
              </td>
              <td className="px-3 py-2 max-md:hidden">{labels.get(row.connectionId) ?? row.connectionId}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Disputes of the Test/Live view: the open ones first by deadline, then every dispute, newest first, filtered, in keyset pages. */
export default async function DisputesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await requirePageViewer("invoices.read");
  const timeZone = timeZoneInForce(viewer);
  const mode = await getViewMode();
  const { filters, filter, invalid } = readDisputePageQuery(await searchParams, timeZone);
  const db = await getDb();
  const filtered = Object.keys(filters).length > 0;
  const [open, page, connections] = await Promise.all([
    filtered ? Promise.resolve([]) : listOpenDisputesByDeadline(db, viewer.merchant.id, mode),
    listDisputes(db, viewer.merchant.id, { ...filter, mode }),
    listConnections(db, viewer.merchant.id, { mode }),
  ]);
  const labels = new Map(connections.map((connection) => [connection.id, connection.label]));
  const now = new Date();
  return (
    <>
      <PageHeader
        title="Disputes"
        description={`Chargebacks of ${mode} payments. Answer each before its deadline: evidence to contest it, or accept it. Times in ${timeZone}.`}
        actions={
          can(viewer.user.role, "export") ? (
            <a href={`/api/dashboard/disputes/export?${search(filters)}`} className="btn-secondary" download>
              Export CSV
            </a>
          ) : null
        }
      />
      <form method="get" className="card mb-6 grid gap-3 sm:grid-cols-4 sm:items-end" aria-label="Filter disputes">
        <label className="block text-sm">
          <span className="mb-1 block font-medium">Status</span>
          <select name="status" defaultValue={filters.status ?? ""} className="input w-full">
            <option value="">Any</option>
            <option value="open">Open (needs response or under review)</option>
            {DISPUTE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {DISPUTE_STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          <span className="mb-1 block font-medium">Connection</span>
          <select name="connection" defaultValue={filters.connection ?? ""} className="input w-full">
            <option value="">Any</option>
            {connections.map((connection) => (
              <option key={connection.id} value={connection.id}>
                {connection.label}
              </option>
            ))}
          </select>
        </label>
        <label className="block text-sm">
          <span className="mb-1 block font-medium">Deadline on or before</span>
          <input type="date" name="due_before" defaultValue={filters.due_before ?? ""} className="input w-full" />
        </label>
        <div className="flex gap-3">
          <button type="submit" className="btn-primary">
            Filter
          </button>
          {filtered ? (
            <Link href="/disputes" className="btn-secondary">
              Clear
            </Link>
          ) : null}
        </div>
      </form>
      {invalid.length ? (
        <p role="status" className="mb-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          Ignored what could not be read: {invalid.map((name) => FILTER_WORDS[name] ?? name).join(", ")}.
        </p>
      ) : null}
      {!filtered ? (
        <section aria-labelledby="open-disputes" className="mb-8">
          <h2 id="open-disputes" className="mb-3 text-base font-semibold">
            Open, nearest deadline first
          </h2>
          {open.length ? (
            <DisputeTable rows={open} timeZone={timeZone} label="Open disputes" labels={labels} now={now} />
          ) : (
            <p className="text-sm text-slate-600" data-testid="no-open-disputes">
              No {mode} dispute is open.
            </p>
          )}
        </section>
      ) : null}
      <section aria-labelledby="all-disputes">
        <h2 id="all-disputes" className="mb-3 text-base font-semibold">
          {filtered ? "Disputes matching the filter" : "All disputes, newest first"}
        </h2>
        {page.disputes.length ? (
          <DisputeTable rows={page.disputes} timeZone={timeZone} label="All disputes" labels={labels} now={now} />
        ) : (
          <p className="text-sm text-slate-600">
            No {mode} dispute{filtered ? " matches the filter" : " yet"}.
          </p>
        )}
        {page.nextCursor || filters.after ? (
          <nav aria-label="Pages" className="mt-4 flex gap-3">
            {filters.after ? (
              <Link href={`/disputes?${search(filters)}`} className="btn-secondary">
                Newest
              </Link>
            ) : null}
            {page.nextCursor ? (
              <Link href={`/disputes?${search(filters, page.nextCursor)}`} className="btn-secondary">
                Older
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
    </>
  );
}

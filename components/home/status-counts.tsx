import { Link } from "@/components/link";
import { InvoiceStatusBadge } from "@/components/invoices/status-badge";
import type { StatusCount } from "@/lib/dashboard/home";
import type { Mode } from "@/lib/providers";

/** How many invoices of the view's mode are in each status; each count opens the list filtered by it. */
export function StatusCounts({ counts, mode }: { counts: StatusCount[]; mode: Mode }) {
  const shown = counts.filter((entry) => entry.count > 0);
  const total = counts.reduce((sum, entry) => sum + entry.count, 0);
  // A count that reached the cap reads "99+", and so does the total it is part of.
  const more = counts.some((entry) => entry.atLeast) ? "+" : "";
  return (
    <section className="card" aria-labelledby="status-counts-heading">
      <h2 id="status-counts-heading" className="text-base font-semibold">
        {mode === "test" ? "Test" : "Live"} invoices by status
      </h2>
      {shown.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No {mode} invoices yet.</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {total}
            {more} in all; each count opens the list of that status
          </p>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2">
            {shown.map(({ status, count, atLeast }) => (
              <li key={status}>
                <Link
                  href={`/invoices?status=${status}`}
                  data-testid={`status-count-${status}`}
                  className="flex items-center justify-between gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm hover:bg-slate-50"
                >
                  <InvoiceStatusBadge status={status} />
                  <span className="font-semibold tabular-nums">
                    {count}
                    {atLeast ? "+" : ""}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

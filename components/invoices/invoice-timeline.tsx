"use client";

import type { DashboardInvoice } from "@/lib/invoices/read/invoice-view";
import { formatMoment } from "./invoice-client";
import { InvoiceStatusBadge } from "./status-badge";
import { useDashboardInvoice } from "./use-dashboard-invoice";

/** Every status change, oldest first; follows the same live query as the status panel. */
export function InvoiceTimeline({ initial }: { initial: DashboardInvoice }) {
  const { data: invoice } = useDashboardInvoice(initial);
  if (invoice.history.length === 0) return <p className="text-sm text-slate-600">Nothing recorded yet.</p>;
  return (
    <ol className="relative space-y-4 border-l border-slate-200 pl-5 text-sm" data-testid="invoice-timeline">
      {invoice.history.map((entry) => (
        <li key={entry.id} className="relative">
          <span className="absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full bg-brand-500 ring-4 ring-white" aria-hidden="true" />
          <p className="flex flex-wrap items-center gap-2">
            {entry.from ? (
              <>
                <InvoiceStatusBadge status={entry.from} />
                <span aria-hidden="true">→</span>
                <span className="sr-only">to</span>
              </>
            ) : (
              <span className="text-slate-700">Created as</span>
            )}
            <InvoiceStatusBadge status={entry.to} />
            {entry.resolution ? <span className="font-mono text-xs text-slate-700">resolution {entry.resolution}</span> : null}
          </p>
          <p className="mt-1 text-xs text-slate-600">
            <time dateTime={entry.at}>{formatMoment(entry.at)}</time>
            {entry.reason !== entry.to ? ` · ${entry.reason}` : null}
          </p>
        </li>
      ))}
    </ol>
  );
}

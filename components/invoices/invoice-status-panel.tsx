"use client";

import type { DashboardInvoice } from "@/lib/invoices/read/invoice-view";
import { formatClock, formatMoment } from "./invoice-client";
import { InvoiceStatusBadge } from "./status-badge";
import { STATUS_POLL_MS, useDashboardInvoice } from "./use-dashboard-invoice";

/** Status and resolution, live while the invoice may still change on its own. */
export function InvoiceStatusPanel({ initial, timeZone }: { initial: DashboardInvoice; timeZone: string }) {
  const { data: invoice, dataUpdatedAt, isRefetchError, error } = useDashboardInvoice(initial);
  return (
    <div>
      <dl className="grid grid-cols-[8rem_1fr] items-center gap-x-4 gap-y-2 text-sm" aria-live="polite">
        <dt className="text-slate-600">Status</dt>
        <dd>
          <InvoiceStatusBadge status={invoice.status} testId="invoice-status" />
        </dd>
        <dt className="text-slate-600">Resolution</dt>
        <dd className="font-mono text-xs" data-testid="invoice-resolution">
          {invoice.resolution ?? "— (none yet)"}
        </dd>
        <dt className="text-slate-600">Last change</dt>
        <dd>{formatMoment(invoice.updatedAt, timeZone)}</dd>
      </dl>
      <p className="mt-3 text-xs text-slate-600" data-testid="invoice-live">
        {invoice.final
          ? "Final: this invoice will not change any more."
          : invoice.atRest
            ? "Settled: it changes only if a refund is asked for."
            : `Checked ${formatClock(dataUpdatedAt, timeZone)}; checking again every ${STATUS_POLL_MS / 1000} s while the invoice can still change.`}
      </p>
      {isRefetchError ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          Could not check for changes: {error?.message}
        </p>
      ) : null}
    </div>
  );
}

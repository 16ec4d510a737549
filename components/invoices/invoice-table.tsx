import Link from "next/link";
import { ModeBadge } from "@/components/connections/badges";
import { formatDateTime } from "@/lib/format";
import { ROUTING_REASON_LABELS } from "@/lib/routing/reason";
import type { DashboardInvoiceListItem } from "@/lib/invoices/read/invoice-view";
import { InvoiceStatusBadge } from "./status-badge";

const cell = "py-2 pr-4 align-top";

export function InvoiceTable({ invoices }: { invoices: readonly DashboardInvoiceListItem[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="invoice-table">
        <caption className="sr-only">Invoices, newest first</caption>
        <thead className="text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">Invoice</th>
            <th scope="col" className="py-2 pr-4 font-medium">Reference</th>
            <th scope="col" className="hidden py-2 pr-4 font-medium md:table-cell">Type</th>
            <th scope="col" className="py-2 pr-4 font-medium">Status</th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">Amount</th>
            <th scope="col" className="hidden py-2 pr-4 font-medium md:table-cell">Connection</th>
            <th scope="col" className="hidden py-2 pr-4 font-medium md:table-cell">Mode</th>
            <th scope="col" className="hidden py-2 font-medium md:table-cell">Created</th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <tr key={invoice.id} className="border-t border-slate-100" data-testid="invoice-row" data-invoice-id={invoice.id}>
              <td className={cell}>
                <Link className="font-mono text-xs font-medium break-all text-brand-700 underline underline-offset-4" href={`/invoices/${invoice.id}`}>
                  {invoice.id}
                </Link>
              </td>
              <td className={`${cell} max-w-48 font-mono text-xs break-all`}>{invoice.referenceId}</td>
              <td className={`${cell} hidden md:table-cell`}>{invoice.direction === "payment" ? "Payment" : "Payout"}</td>
              <td className={cell}>
                <InvoiceStatusBadge status={invoice.status} />
                {invoice.resolution ? <span className="mt-0.5 block font-mono text-xs text-slate-600">{invoice.resolution}</span> : null}
              </td>
              <td className={`${cell} text-right whitespace-nowrap tabular-nums`}>
                {invoice.amount} {invoice.currency}
              </td>
              <td className={`${cell} hidden md:table-cell`}>
                {invoice.connection ? (
                  <>
                    <span className="block">{invoice.connection.providerName}</span>
                    <span className="block text-xs text-slate-600">
                      {invoice.connection.label}
                      {invoice.connection.deleted ? " (deleted)" : ""}
                    </span>
                    {invoice.routingReason ? (
                      <span className="block text-xs text-slate-600" data-testid="invoice-routing">
                        {ROUTING_REASON_LABELS[invoice.routingReason]}
                      </span>
                    ) : null}
                  </>
                ) : (
                  "—"
                )}
              </td>
              <td className={`${cell} hidden md:table-cell`}><ModeBadge mode={invoice.testMode ? "test" : "live"} /></td>
              <td className={`hidden py-2 align-top whitespace-nowrap md:table-cell`}>{formatDateTime(invoice.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

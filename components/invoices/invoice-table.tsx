import { ModeBadge } from "@/components/connections/badges";
import { LongValue } from "@/components/long-value";
import { formatDateTime, formatDateTimeParts } from "@/lib/format";
import type { DashboardInvoiceListItem } from "@/lib/invoices/read/invoice-view";
import { InvoiceStatusBadge } from "./status-badge";
import { formatMoney } from "@/lib/money";

const cell = "py-2 pr-3 align-top max-md:p-0 2xl:pr-4";
/** Columns shown from md up only; a phone shows each invoice as a two-column card (see the row). */
const wide = "hidden md:table-cell";

/**
 * Below md the rows are cards without sideways scrolling: invoice id and status on the first line,
 * reference and amount on the second, ids cut with an ellipsis and each with a copy button. From
 * md up it is the full table. Table semantics stay (explicit roles, as a grid display would drop them).
 */
export function InvoiceTable({ invoices, timeZone }: { invoices: readonly DashboardInvoiceListItem[]; timeZone: string }) {
  return (
    <div className="md:overflow-x-auto">
      <table role="table" className="w-full text-left text-sm max-md:block" data-testid="invoice-table">
        <caption className="sr-only">Invoices, newest first</caption>
        <thead className="text-slate-600 max-md:sr-only">
          <tr role="row">
            <th role="columnheader" scope="col" className="py-2 pr-3 font-medium 2xl:pr-4">
              Invoice
            </th>
            <th role="columnheader" scope="col" className="py-2 pr-3 font-medium 2xl:pr-4">
              Reference
            </th>
            <th role="columnheader" scope="col" className={`${wide} py-2 pr-3 font-medium 2xl:pr-4`}>
              Type
            </th>
            <th role="columnheader" scope="col" className="py-2 pr-3 font-medium 2xl:pr-4">
              Status
            </th>
            <th role="columnheader" scope="col" className="py-2 pr-3 text-right font-medium 2xl:pr-4">
              Amount
            </th>
            <th role="columnheader" scope="col" className={`${wide} py-2 pr-3 font-medium 2xl:pr-4`}>
              Connection
            </th>
            <th role="columnheader" scope="col" className={`${wide} py-2 pr-3 font-medium 2xl:pr-4`}>
              Mode
            </th>
            <th role="columnheader" scope="col" className={`${wide} py-2 font-medium`}>
              Created
            </th>
          </tr>
        </thead>
        <tbody className="max-md:block">
          {invoices.map((invoice) => (
            <tr
              key={invoice.id}
              role="row"
              className="border-t border-slate-100 max-md:grid max-md:grid-cols-[minmax(0,1fr)_auto] max-md:gap-x-3 max-md:gap-y-1 max-md:py-3"
              data-testid="invoice-row"
              data-invoice-id={invoice.id}
            >
              <td role="cell" className={`${cell} max-md:col-start-1 max-md:row-start-1`}>
                <LongValue value={invoice.id} href={`/invoices/${invoice.id}`} copyLabel="Copy invoice id" testId="invoice-id" />
              </td>
              <td role="cell" className={`${cell} max-md:col-start-1 max-md:row-start-2`}>
                <LongValue value={invoice.referenceId} copyLabel="Copy reference" textClassName="md:max-w-28 2xl:max-w-48" testId="invoice-reference" />
              </td>
              <td role="cell" className={`${cell} ${wide}`}>
                {invoice.direction === "payment" ? "Payment" : "Payout"}
              </td>
              <td role="cell" className={`${cell} max-md:col-start-2 max-md:row-start-1 max-md:text-right`}>
                <InvoiceStatusBadge status={invoice.status} />
                {invoice.resolution ? (
                  <span className="mt-0.5 block font-mono text-xs break-all text-slate-600 md:max-w-28 2xl:max-w-none">{invoice.resolution}</span>
                ) : null}
              </td>
              <td role="cell" className={`${cell} max-md:col-start-2 max-md:row-start-2 text-right whitespace-nowrap tabular-nums`}>
                {formatMoney(invoice.amount, invoice.currency)}
              </td>
              <td role="cell" className={`${cell} ${wide}`}>
                {invoice.connection ? (
                  <>
                    {/* The label on one line (cut, whole in its title), then the provider and why the invoice went there. */}
                    <span className="block max-w-48 truncate" title={`${invoice.connection.label}${invoice.connection.deleted ? " (deleted)" : ""}`}>
                      {invoice.connection.label}
                      {invoice.connection.deleted ? " (deleted)" : ""}
                    </span>
                    <span className="block max-w-48 text-xs text-slate-600">
                      {invoice.connection.providerName}
                      {invoice.routingReasonText ? (
                        <>
                          {" · "}
                          <span data-testid="invoice-routing">{invoice.routingReasonText}</span>
                        </>
                      ) : null}
                    </span>
                  </>
                ) : (
                  "—"
                )}
              </td>
              <td role="cell" className={`${cell} ${wide}`}>
                <ModeBadge mode={invoice.testMode ? "test" : "live"} />
              </td>
              <td role="cell" className={`${wide} py-2 align-top whitespace-nowrap`} title={formatDateTime(invoice.createdAt, timeZone)}>
                <span className="block">{formatDateTimeParts(invoice.createdAt, timeZone).date}</span>
                <span className="block text-xs text-slate-600">{formatDateTimeParts(invoice.createdAt, timeZone).time}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

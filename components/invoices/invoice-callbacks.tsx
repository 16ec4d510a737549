// To the second: a callback often follows the answer within seconds.
import { formatMoment } from "./invoice-client";
import { CALLBACK_OUTCOME_LABELS, type InvoiceCallbackView } from "@/lib/callbacks/views";

const OUTCOME_CLASSES: Readonly<Record<InvoiceCallbackView["outcome"], string>> = {
  applied: "text-emerald-800",
  ignored: "text-slate-700",
  superseded: "text-slate-700",
  rejected: "text-red-700",
};

export type InvoiceCallbacksProps = {
  /** listInvoiceCallbacks(db, merchantId, invoiceId) from lib/callbacks/read.ts, oldest first. */
  callbacks: InvoiceCallbackView[];
  /** The zone in force for the viewer (lib/time-zones.ts), from the server. */
  timeZone: string;
};

/**
 * The invoice page's "Provider callbacks": every notification a provider sent about this
 * invoice's attempts and refunds, what the service did with it (applied, ignored because of ignore_callback,
 * stored without effect because the invoice had moved on, rejected) and what it reported. Renders
 * on the server or the client alike.
 */
export function InvoiceCallbacks({ callbacks, timeZone }: InvoiceCallbacksProps) {
  if (callbacks.length === 0) {
    return (
      <p className="text-sm text-slate-600" data-testid="invoice-callbacks-empty">
        No provider callbacks yet.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="invoice-callbacks">
        <caption className="sr-only">Provider callbacks for this invoice</caption>
        <thead className="text-slate-600">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium md:pr-4">
              Received at
            </th>
            {/* Below md the provider column gives way and long words wrap, so the table fits a phone. */}
            <th scope="col" className="hidden py-1 pr-4 font-medium md:table-cell">
              Provider
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Outcome
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Reason
            </th>
            <th scope="col" className="py-1 font-medium">
              Reported status
            </th>
          </tr>
        </thead>
        <tbody>
          {callbacks.map((callback) => (
            <tr key={callback.id} className="border-t border-slate-100 align-top" data-testid="invoice-callback">
              <td className="py-1 pr-3 md:pr-4 md:whitespace-nowrap">
                <time dateTime={callback.receivedAt}>{formatMoment(callback.receivedAt, timeZone)}</time>
              </td>
              <td className="hidden py-1 pr-4 md:table-cell">{callback.providerName}</td>
              <td className={`py-1 pr-3 font-medium md:pr-4 ${OUTCOME_CLASSES[callback.outcome]}`}>{CALLBACK_OUTCOME_LABELS[callback.outcome]}</td>
              <td className="py-1 pr-3 wrap-anywhere md:pr-4">{callback.reason ?? "—"}</td>
              <td className="py-1 wrap-anywhere">
                {callback.refundId ? (
                  <span className="block text-xs text-slate-600">
                    Refund <span className="font-mono">{callback.refundId}</span>
                  </span>
                ) : null}
                {callback.reportedStatus ? callback.reportedStatus.replaceAll("_", " ") : "—"}
                {callback.reportedResolution ? <span className="text-slate-600"> ({callback.reportedResolution.replaceAll("_", " ")})</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import type { CustomerTotal } from "@/lib/dashboard/customers";
import { formatMoney } from "@/lib/money";

/** A customer's money per currency: paid (captured), refunded, and held by open authorizations. */
export function CustomerTotals({ totals, compact = false }: { totals: readonly CustomerTotal[]; compact?: boolean }) {
  if (totals.length === 0) return <span className="text-slate-600">{compact ? "Nothing paid yet" : "No payments yet."}</span>;
  if (compact) {
    return (
      <span className="tabular-nums" data-testid="customer-paid">
        Paid {totals.map((total) => formatMoney(total.paid, total.currency)).join(" · ")}
      </span>
    );
  }
  return (
    <table className="w-full max-w-xl text-left text-sm" data-testid="customer-totals">
      <caption className="sr-only">Totals per currency</caption>
      <thead className="text-slate-600">
        <tr>
          <th scope="col" className="py-1 pr-4 font-medium">
            Currency
          </th>
          <th scope="col" className="py-1 pr-4 text-right font-medium">
            Paid
          </th>
          <th scope="col" className="py-1 pr-4 text-right font-medium">
            Refunded
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Held
          </th>
        </tr>
      </thead>
      <tbody>
        {totals.map((total) => (
          <tr key={total.currency} className="border-t border-slate-100 tabular-nums">
            <th scope="row" className="py-1 pr-4 font-medium">
              {total.currency}
            </th>
            <td className="py-1 pr-4 text-right">{formatMoney(total.paid, total.currency)}</td>
            <td className="py-1 pr-4 text-right">{formatMoney(total.refunded, total.currency)}</td>
            <td className="py-1 text-right">{formatMoney(total.held, total.currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

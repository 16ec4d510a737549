import Form from "next/form";
import { Link } from "@/components/link";
import type { DashboardInvoiceFilters } from "@/lib/invoices/read/filters";
import { possibleStatuses } from "@/lib/invoices/state-machine";
import { PROVIDERS } from "@/lib/providers";

const control = "input mt-1";

/** The id of the element the phone's "Filters" button opens (FiltersDisclosure). */
export const INVOICE_FILTERS_PANEL_ID = "invoice-filters";

/** How many of the form's filters are set (the mode is the Test/Live view, not one of them). */
export function activeFilterCount(filters: DashboardInvoiceFilters): number {
  return [filters.type, filters.status, filters.provider, filters.reference, filters.from, filters.to].filter(Boolean).length;
}

/**
 * The statuses an invoice of the chosen type can be in (possibleStatuses: refunds for payments,
 * cancels for payouts), and the one in the address if it is another, so the select shows what is applied.
 */
function statusOptions(filters: DashboardInvoiceFilters): string[] {
  const options: string[] = possibleStatuses(filters.type);
  return filters.status && !options.includes(filters.status) ? [...options, filters.status] : options;
}

/**
 * A GET form: it works without JavaScript, and its fields are the page's query parameters, which
 * the server reads and the list's query key repeats. Keyed by the filters, so "Clear" and the
 * browser's back button show the values that are really applied.
 */
export function InvoiceFilters({ filters, timeZone }: { filters: DashboardInvoiceFilters; timeZone: string }) {
  return (
    <Form key={JSON.stringify(filters)} action="/invoices" aria-label="Filter invoices" className="card grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {/* Without JavaScript the phone's Filters button cannot open anything: show the filters, hide the button. */}
      <noscript
        dangerouslySetInnerHTML={{
          __html: `<style>#${INVOICE_FILTERS_PANEL_ID}{display:block!important}[aria-controls="${INVOICE_FILTERS_PANEL_ID}"]{display:none!important}</style>`,
        }}
      />
      {/* Filters narrow a search rather than replace it (the header's search box sets q). */}
      {filters.q ? <input type="hidden" name="q" value={filters.q} /> : null}
      <div>
        <label htmlFor="filter-type" className="label">
          Type
        </label>
        <select id="filter-type" name="type" defaultValue={filters.type ?? ""} className={control}>
          <option value="">Payments and payouts</option>
          <option value="payment">Payments</option>
          <option value="payout">Payouts</option>
        </select>
      </div>
      <div>
        <label htmlFor="filter-status" className="label">
          Status
        </label>
        <select id="filter-status" name="status" defaultValue={filters.status ?? ""} className={control}>
          <option value="">Any status</option>
          {statusOptions(filters).map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="filter-provider" className="label">
          Provider
        </label>
        <select id="filter-provider" name="provider" defaultValue={filters.provider ?? ""} className={control}>
          <option value="">Any provider</option>
          {PROVIDERS.map((p) => (
            <option key={p.slug} value={p.slug}>
              {p.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="filter-reference" className="label">
          Reference
        </label>
        <input
          id="filter-reference"
          name="reference"
          defaultValue={filters.reference ?? ""}
          className={`${control} font-mono`}
          aria-describedby="filter-reference-help"
          autoComplete="off"
          spellCheck={false}
        />
        <p id="filter-reference-help" className="help">
          The whole reference_id or its beginning
        </p>
      </div>
      <div>
        <label htmlFor="filter-from" className="label">
          Created from
        </label>
        <input id="filter-from" name="from" type="date" defaultValue={filters.from ?? ""} className={control} aria-describedby="filter-dates-help" />
        <p id="filter-dates-help" className="help">
          Days in {timeZone}, both included
        </p>
      </div>
      <div>
        <label htmlFor="filter-to" className="label">
          Created to
        </label>
        <input id="filter-to" name="to" type="date" defaultValue={filters.to ?? ""} className={control} aria-describedby="filter-dates-help" />
      </div>
      <div className="flex items-center gap-4 sm:pt-6">
        <button type="submit" className="btn-primary">
          Apply filters
        </button>
        <Link href="/invoices" className="text-sm text-brand-700 underline">
          Clear
        </Link>
      </div>
    </Form>
  );
}

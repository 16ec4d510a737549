import type { Metadata } from "next";
import { Link } from "@/components/link";
import { redirect } from "next/navigation";
import { invoiceSearch } from "@/components/invoices/invoice-client";
import { FiltersDisclosure } from "@/components/invoices/filters-disclosure";
import { activeFilterCount, INVOICE_FILTERS_PANEL_ID, InvoiceFilters } from "@/components/invoices/invoice-filters";
import { ExportButton } from "@/components/invoices/export-button";
import { InvoiceListOnUse } from "@/components/invoices/invoice-list-on-use";
import { PageHeader } from "@/components/shell/page-header";
import { can, canAnyMode } from "@/lib/identity/permissions";
import { requirePageViewer } from "@/lib/auth/viewer";
import { timeZoneInForce } from "@/lib/time-zones";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";
import { listDashboardInvoices } from "@/lib/invoices/read/dashboard-invoices";
import { readDashboardListQuery } from "@/lib/invoices/read/filters";
import { searchCustomers } from "@/lib/dashboard/customers";

export const metadata: Metadata = { title: "Invoices" };

const FILTER_LABELS: Record<string, string> = {
  q: "search",
  type: "type",
  status: "status",
  provider: "provider",
  mode: "mode",
  reference: "reference",
  from: "created from",
  to: "created to",
  after: "page position",
};

export default async function InvoicesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await requirePageViewer();
  const timeZone = timeZoneInForce(viewer);
  // The Test/Live view decides the mode; the list's refreshes (app/api/dashboard/invoices) read the same cookie.
  const viewMode = await getViewMode();
  const { filters, after, invalid, filter } = readDashboardListQuery(await searchParams, { viewMode, timeZone });
  const db = await getDb();
  const [page, customers] = await Promise.all([
    listDashboardInvoices(db, viewer.merchant.id, filter),
    filters.q && !after ? searchCustomers(db, viewer.merchant.id, viewMode, filters.q) : Promise.resolve([]),
  ]);
  // A search that names one invoice exactly (its id, or the reference of the only invoice that has it) opens it.
  const only = page.invoices.length === 1 && !page.nextCursor && !after ? page.invoices[0] : undefined;
  if (filters.q && only && (only.id === filters.q || only.referenceId === filters.q) && Object.keys(filters).length === 1 && customers.length === 0) {
    redirect(`/invoices/${only.id}`);
  }
  return (
    <>
      <PageHeader
        title="Invoices"
        description="Payment and payout invoices created through the invoice API, newest first. The list refreshes itself."
        actions={
          <div className="flex flex-wrap items-start gap-3">
            {can(viewer.user.role, "export") ? <ExportButton filters={filters} /> : null}
            {canAnyMode(viewer.user.role, "invoices.compose") ? (
              <>
                <Link href="/invoices/new/link" className="btn-secondary">
                  Send a payment link
                </Link>
                <Link href="/invoices/new" className="btn-secondary">
                  Compose a test invoice
                </Link>
              </>
            ) : null}
          </div>
        }
      />
      {filters.q ? (
        <p className="mb-4 text-sm text-slate-700" data-testid="search-summary">
          Invoices matching <span className="font-mono font-semibold">{filters.q}</span> by id, reference, provider reference, customer e-mail or name, or card
          last four.{" "}
          <Link href={`/invoices?${invoiceSearch({ ...filters, q: undefined })}`} className="text-brand-700 underline">
            Clear search
          </Link>
        </p>
      ) : null}
      {customers.length > 0 ? (
        <nav aria-label="Customers found" className="mb-4 rounded-md border border-slate-200 bg-white p-3 text-sm" data-testid="search-customers">
          <span className="font-medium">Customers:</span>{" "}
          {customers.map((reference, index) => (
            <span key={reference}>
              {index > 0 ? ", " : null}
              <Link href={`/customers/${encodeURIComponent(reference)}`} className="font-mono text-brand-700 underline wrap-anywhere">
                {reference}
              </Link>
            </span>
          ))}
        </nav>
      ) : null}
      <FiltersDisclosure activeCount={activeFilterCount(filters)} panelId={INVOICE_FILTERS_PANEL_ID}>
        <InvoiceFilters filters={filters} timeZone={timeZone} />
      </FiltersDisclosure>
      {invalid.length ? (
        <p role="status" className="mb-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          Ignored what could not be read: {invalid.map((name) => FILTER_LABELS[name] ?? name).join(", ")}.
        </p>
      ) : null}
      {/* Keyed by the view and the filters: switching either starts afresh from the server's new data (the
          server's markup of the list before shows other invoices, so it must not stay while the live list loads). */}
      <InvoiceListOnUse
        key={`${viewMode}?${invoiceSearch(filters, after ?? undefined)}`}
        filters={filters}
        start={after ?? null}
        initialPage={page}
        timeZone={timeZone}
        canCompose={canAnyMode(viewer.user.role, "invoices.compose")}
      />
    </>
  );
}

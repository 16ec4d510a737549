"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "@/components/link";
import type { DashboardInvoiceFilters } from "@/lib/invoices/read/filters";
import type { DashboardInvoicePage } from "@/lib/invoices/read/invoice-view";
import { fetchInvoicePage, formatClock, invoiceListKey, invoiceSearch } from "./invoice-client";
import { REFRESH_MS } from "./invoice-refresh";
import { InvoiceTable } from "./invoice-table";

type Props = {
  filters: DashboardInvoiceFilters;
  /** The viewer may compose (lib/identity/permissions.ts): the empty list then links to the composer. */
  canCompose?: boolean;
  /** Cursor the page starts at (a "Show more" link followed without JavaScript); null for the newest. */
  start: string | null;
  initialPage: DashboardInvoicePage;
  /** The zone in force for the viewer (lib/time-zones.ts), from the server. */
  timeZone: string;
};

/**
 * The server renders the first page; TanStack Query keeps it fresh (every 10 s and on window
 * focus) and appends later pages. Refetching an infinite query re-reads every loaded page from
 * the top, so new invoices appear first and the pages below stay without repeats or gaps.
 */
export function InvoiceList({ filters, start, initialPage, timeZone, canCompose = true }: Props) {
  const query = useInfiniteQuery({
    queryKey: invoiceListKey(filters, start),
    queryFn: ({ pageParam, signal }) => fetchInvoicePage(filters, pageParam, signal),
    initialPageParam: start,
    getNextPageParam: (last) => last.nextCursor,
    initialData: { pages: [initialPage], pageParams: [start] },
    initialDataUpdatedAt: initialPage.readAt,
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: true,
  });
  const pages = query.data.pages;
  const invoices = pages.flatMap((page) => page.invoices);
  const next = pages.at(-1)?.nextCursor ?? null;
  const narrowed = start !== null || Object.values(filters).some(Boolean);

  if (invoices.length === 0) return <EmptyList narrowed={narrowed} canCompose={canCompose} />;

  return (
    <section className="card" aria-labelledby="invoice-list-heading">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="invoice-list-heading" className="text-base font-semibold">
          {narrowed ? "Matching invoices" : "All invoices"}
        </h2>
        <p className="text-xs text-slate-600">
          Updated {formatClock(query.dataUpdatedAt, timeZone)}, refreshes every {REFRESH_MS / 1000} s
        </p>
      </div>
      {query.isRefetchError ? (
        <p role="alert" className="mb-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          Could not refresh the list: {query.error?.message} Showing the invoices loaded before.
        </p>
      ) : null}
      <InvoiceTable invoices={invoices} timeZone={timeZone} />
      <div className="mt-4 flex flex-wrap items-center gap-4 text-sm">
        <p role="status" className="text-slate-600" data-testid="invoice-count">
          {invoices.length} {invoices.length === 1 ? "invoice" : "invoices"} shown{next ? "; there are more" : ""}
        </p>
        {next ? (
          <Link
            href={`/invoices?${invoiceSearch(filters, next)}`}
            prefetch={false}
            data-on-use-press=""
            className="btn-secondary"
            aria-disabled={query.isFetchingNextPage || undefined}
            onClick={(event) => {
              // Without JavaScript the link opens the next page; with it, the page is appended.
              event.preventDefault();
              if (!query.isFetchingNextPage) void query.fetchNextPage();
            }}
          >
            {query.isFetchingNextPage ? "Loading…" : "Show more invoices"}
          </Link>
        ) : null}
        {query.isFetchNextPageError ? (
          <span role="alert" className="text-red-700">
            Could not load more: {query.error?.message}
          </span>
        ) : null}
        {start !== null ? (
          <Link href={`/invoices?${invoiceSearch(filters)}`} className="text-brand-700 underline">
            Back to the newest invoices
          </Link>
        ) : null}
      </div>
    </section>
  );
}

function EmptyList({ narrowed, canCompose }: { narrowed: boolean; canCompose: boolean }) {
  if (narrowed) {
    return (
      <section className="card" aria-labelledby="invoice-list-heading">
        <h2 id="invoice-list-heading" className="text-base font-semibold">
          No invoices match these filters
        </h2>
        <p className="mt-1 text-sm text-slate-600">Widen the filters, or clear them to see every invoice.</p>
        <Link href="/invoices" className="btn-secondary mt-4">
          Clear filters
        </Link>
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="invoice-list-heading">
      <h2 id="invoice-list-heading" className="text-base font-semibold">
        No invoices yet
      </h2>
      <p className="mt-1 text-sm text-slate-600">Invoices created through the invoice API appear here within seconds, payments and payouts alike.</p>
      {canCompose ? (
        <Link href="/invoices/new" className="btn-primary mt-4">
          Compose a test invoice
        </Link>
      ) : null}
    </section>
  );
}

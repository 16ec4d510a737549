import type { Metadata } from "next";
import { Link } from "@/components/link";
import { PageHeader } from "@/components/shell/page-header";
import { CustomerTotals } from "@/components/customers/customer-totals";
import { requirePageViewer } from "@/lib/auth/viewer";
import { listCustomers, isCustomerReference } from "@/lib/dashboard/customers";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format";
import { timeZoneInForce } from "@/lib/time-zones";

export const metadata: Metadata = { title: "Customers" };

const one = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);

/**
 * Every customer reference of the merchant in the Test/Live view: the payments that named it and
 * the cards saved for it, in reference order, 25 a page (keyset on the reference); a prefix search.
 */
export default async function CustomersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await requirePageViewer("invoices.read");
  const timeZone = timeZoneInForce(viewer);
  const mode = await getViewMode();
  const params = await searchParams;
  const q = one(params.q)?.trim();
  const after = one(params.after);
  const prefix = q && isCustomerReference(q) ? q : undefined;
  const page = await listCustomers(await getDb(), viewer.merchant.id, {
    mode,
    prefix,
    after: after && isCustomerReference(after) ? after : undefined,
  });
  const link = (next: string) => `/customers?${new URLSearchParams({ ...(prefix ? { q: prefix } : {}), after: next }).toString()}`;
  return (
    <>
      <PageHeader
        title="Customers"
        description={
          <>
            Each customer reference (<code>customer.reference_id</code>) your {mode} payments named or saved a card for, with its saved cards, invoices and
            totals.
          </>
        }
      />
      <form action="/customers" role="search" aria-label="Customers" className="mb-4 flex max-w-xl flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor="customer-search" className="label">
            Customer reference starts with
          </label>
          <input
            id="customer-search"
            name="q"
            type="search"
            defaultValue={q ?? ""}
            maxLength={255}
            autoComplete="off"
            spellCheck={false}
            className="input mt-1 w-full"
          />
        </div>
        <button type="submit" className="btn-secondary">
          Find
        </button>
        {q ? (
          <Link href="/customers" className="btn-secondary">
            Show all
          </Link>
        ) : null}
      </form>
      {page.customers.length === 0 ? (
        <p className="card text-sm text-slate-600" data-testid="customers-empty">
          {q
            ? `No customer reference in ${mode} mode starts with “${q}”.`
            : `No ${mode} payment has named a customer yet. Send customer.reference_id with a payment (and gateway_options.cardgate.tokenize to save its card) and the customer shows here.`}
        </p>
      ) : (
        <ul className="card divide-y divide-slate-100 p-0" data-testid="customer-list" aria-label={`Customers in ${mode} mode`}>
          {page.customers.map((customer) => (
            <li key={customer.reference} className="flex flex-wrap items-baseline gap-x-6 gap-y-1 px-4 py-3 text-sm" data-testid="customer-row">
              <Link
                href={`/customers/${encodeURIComponent(customer.reference)}`}
                className="min-w-0 basis-full font-mono font-medium wrap-anywhere text-brand-700 underline sm:basis-64"
              >
                {customer.reference}
              </Link>
              <span data-testid="customer-invoices">
                {customer.invoices} {customer.invoices === 1 ? "invoice" : "invoices"}
              </span>
              <span data-testid="customer-cards">
                {customer.cards} saved {customer.cards === 1 ? "card" : "cards"}
                {customer.cards > customer.usableCards ? ` (${customer.usableCards} usable)` : ""}
              </span>
              <CustomerTotals totals={customer.totals} compact />
              {customer.lastActivity ? <span className="text-slate-600">Last: {formatDateTime(customer.lastActivity, timeZone)}</span> : null}
            </li>
          ))}
        </ul>
      )}
      <nav aria-label="Pages" className="mt-4 flex flex-wrap gap-3">
        {after ? (
          <Link href={prefix ? `/customers?q=${encodeURIComponent(prefix)}` : "/customers"} className="btn-secondary">
            First page
          </Link>
        ) : null}
        {page.nextCursor ? (
          <Link href={link(page.nextCursor)} className="btn-secondary" data-testid="customers-next">
            Next page
          </Link>
        ) : null}
      </nav>
    </>
  );
}

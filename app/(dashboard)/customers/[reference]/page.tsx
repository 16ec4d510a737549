import type { Metadata } from "next";
import { Link } from "@/components/link";
import { notFound } from "next/navigation";
import { CustomerTotals } from "@/components/customers/customer-totals";
import { SavedCards, type SavedCardRow } from "@/components/customers/saved-cards";
import { InvoiceStatusBadge } from "@/components/invoices/status-badge";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { decodeInvoiceCursor, readCustomer } from "@/lib/dashboard/customers";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format";
import { can, canInMode } from "@/lib/identity/permissions";
import { formatMoney } from "@/lib/money";
import { getProvider } from "@/lib/providers";
import { cardBrandLabel } from "@/lib/cards/bin";
import { timeZoneInForce } from "@/lib/time-zones";

type Params = { params: Promise<{ reference: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

function referenceOf(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: `Customer ${referenceOf((await params).reference)}` };
}

/** One customer reference in the Test/Live view: totals, saved cards (Remove), its payments newest first. */
export default async function CustomerPage({ params, searchParams }: Params) {
  const viewer = await requirePageViewer("invoices.read");
  const timeZone = timeZoneInForce(viewer);
  const mode = await getViewMode();
  const reference = referenceOf((await params).reference);
  const afterParam = (await searchParams).after;
  const after = typeof afterParam === "string" ? decodeInvoiceCursor(afterParam) : undefined;
  const customer = await readCustomer(await getDb(), viewer.merchant.id, { mode, reference, after });
  if (!customer) notFound();
  const cards: SavedCardRow[] = customer.cards.map((card) => ({
    id: card.id,
    brand: cardBrandLabel(card.brand),
    lastFour: card.lastFour,
    expiry: `${String(card.expiryMonth).padStart(2, "0")}/${card.expiryYear}`,
    providerName: getProvider(card.provider)?.name ?? card.provider,
    connectionId: card.connectionId,
    connectionLabel: card.connectionLabel,
    unusable: card.detachedAt ? `removed ${formatDateTime(card.detachedAt, timeZone)}` : card.connectionDeleted ? "its connection was deleted" : null,
    createdAt: card.createdAt.toISOString(),
  }));
  const base = `/customers/${encodeURIComponent(reference)}`;
  return (
    <div className="max-w-5xl space-y-6">
      <PageHeader
        title={`Customer ${reference}`}
        description={<>Payments and saved cards in {mode} mode that name this customer reference.</>}
        actions={
          <Link href="/customers" className="btn-secondary">
            All customers
          </Link>
        }
      />
      <section className="card" aria-labelledby="totals-title">
        <h2 id="totals-title" className="mb-3 text-base font-semibold">
          Totals
        </h2>
        <CustomerTotals totals={customer.totals} />
      </section>
      <section className="card" aria-labelledby="cards-title" data-testid="customer-cards-section">
        <h2 id="cards-title" className="mb-3 text-base font-semibold">
          Saved cards
        </h2>
        <SavedCards cards={cards} canRemove={canInMode(viewer.user.role, "cards.remove", mode)} linkConnections={can(viewer.user.role, "connections.write")} />
      </section>
      <section className="card" aria-labelledby="invoices-title" data-testid="customer-invoices-section">
        <h2 id="invoices-title" className="mb-3 text-base font-semibold">
          Invoices
        </h2>
        {customer.invoices.length === 0 ? (
          <p className="text-sm text-slate-600">{after ? "No more invoices." : "No payments name this customer yet."}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="customer-invoices">
            {customer.invoices.map((invoice) => (
              <li key={invoice.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 py-2 text-sm">
                <Link href={`/invoices/${invoice.id}`} className="font-mono text-xs wrap-anywhere text-brand-700 underline">
                  {invoice.id}
                </Link>
                <InvoiceStatusBadge status={invoice.status as Parameters<typeof InvoiceStatusBadge>[0]["status"]} />
                <span className="font-medium tabular-nums">{formatMoney(invoice.amount, invoice.currency)}</span>
                {invoice.flow === "authorize" ? <span className="text-slate-600">authorize</span> : null}
                <span className="text-slate-600">{formatDateTime(invoice.createdAt, timeZone)}</span>
              </li>
            ))}
          </ul>
        )}
        <nav aria-label="Invoice pages" className="mt-3 flex flex-wrap gap-3">
          {after ? (
            <Link href={base} className="btn-secondary">
              Newest invoices
            </Link>
          ) : null}
          {customer.nextInvoices ? (
            <Link href={`${base}?after=${customer.nextInvoices}`} className="btn-secondary">
              Older invoices
            </Link>
          ) : null}
        </nav>
      </section>
    </div>
  );
}

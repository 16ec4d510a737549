import type { Metadata } from "next";
import Link from "next/link";
import { randomUUID } from "node:crypto";
import { InvoiceComposer } from "@/components/invoices/composer/invoice-composer";
import { PaymentLinkForm } from "@/components/invoices/payment-link/payment-link-form";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { listConnections } from "@/lib/connections/queries";
import { publicBaseUrl } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { invoiceApiBaseUrl } from "@/lib/composer/base-url";
import { composerConnections, composerRoutes } from "@/lib/composer/connections";
import { getRoutingOrders } from "@/lib/routing/orders";
import { paymentLinkCurrencies } from "@/lib/payment-links/create-payment-link";

export const metadata: Metadata = { title: "New invoice" };

type Props = { searchParams: Promise<{ mode?: string | string[] }> };

/**
 * Two modes: "Payment link" in plain words, and "Advanced", the composer with every attribute of
 * the API. Each is its own page load, so one mode's client code is never sent with the other.
 */
function ModeSwitch({ mode }: { mode: "link" | "advanced" }) {
  const tab = (target: "link" | "advanced", href: string, label: string) => (
    <Link href={href} aria-current={mode === target ? "page" : undefined} className={mode === target ? "btn-primary" : "btn-secondary"}>
      {label}
    </Link>
  );
  return (
    <nav aria-label="How to create the invoice" className="mb-6 flex flex-wrap gap-2">
      {tab("link", "/invoices/new?mode=link", "Payment link")}
      {tab("advanced", "/invoices/new", "Advanced: API request")}
    </nav>
  );
}

export default async function NewInvoicePage({ searchParams }: Props) {
  const viewer = await requirePageViewer();
  const role = viewer.user.role;
  if ((await searchParams).mode === "link") {
    return (
      <>
        <PageHeader title="New invoice" description="Send your customer a link to pay: by e-mail, and as a link and QR code to share yourself." />
        <ModeSwitch mode="link" />
        <PaymentLinkForm currencies={paymentLinkCurrencies()} canGoLive={role === "owner"} />
      </>
    );
  }
  const db = await getDb();
  const [views, orders] = await Promise.all([listConnections(db, viewer.merchant.id, { state: "enabled" }), getRoutingOrders(db, viewer.merchant.id)]);
  const connections = composerConnections(views, role);
  // Shown in the curl command only: the address a client outside would use. The server action
  // itself posts to invoiceApiBaseUrl(), never to anything the request's Host names.
  const configured = invoiceApiBaseUrl(process.env.INVOICE_API_BASE_URL, process.env.PORT);
  const shownBase = process.env.INVOICE_API_BASE_URL && configured.ok ? configured.baseUrl : publicBaseUrl();
  return (
    <>
      <PageHeader
        title="New invoice"
        description={
          <>
            Compose a payment or payout invoice and send it to the invoice API exactly as your systems would, for
            commerce account <code>{viewer.merchant.commerceAccount}</code>.
            {role === "owner" ? null : " As a support member you can create test-mode invoices only."}
          </>
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <Link href="/docs/api" className="btn-secondary">
              API reference
            </Link>
            <Link href="/invoices" className="btn-secondary">
              Back to invoices
            </Link>
          </div>
        }
      />
      <ModeSwitch mode="advanced" />
      <InvoiceComposer
        connections={connections}
        routes={composerRoutes(orders, connections)}
        commerceAccount={viewer.merchant.commerceAccount}
        role={role}
        apiBaseUrl={shownBase}
        initialReferenceId={randomUUID()}
        pinLive={viewer.merchant.allowLivePins}
      />
    </>
  );
}

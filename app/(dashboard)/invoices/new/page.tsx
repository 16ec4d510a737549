import type { Metadata } from "next";
import { Link } from "@/components/link";
import { randomUUID } from "node:crypto";
import { InvoiceComposerOnUse } from "@/components/invoices/composer/invoice-composer-on-use";
import { NewInvoiceModes } from "@/components/invoices/new-invoice-modes";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { listConnections } from "@/lib/connections/queries";
import { publicBaseUrl } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { invoiceApiBaseUrl } from "@/lib/composer/base-url";
import { composerConnections, composerRoutes } from "@/lib/composer/connections";
import { getRoutingOrders } from "@/lib/routing/orders";
import { canInMode } from "@/lib/identity/permissions";

export const metadata: Metadata = { title: "New invoice" };

export default async function NewInvoicePage() {
  const viewer = await requirePageViewer("invoices.compose");
  const role = viewer.user.role;
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
            Compose a payment or payout invoice and send it to the invoice API exactly as your systems would, for commerce account{" "}
            <code>{viewer.merchant.commerceAccount}</code>.{canInMode(role, "invoices.compose", "live") ? null : " Your role creates test-mode invoices only."}
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
      <NewInvoiceModes mode="advanced" />
      <InvoiceComposerOnUse
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

import type { Metadata } from "next";
import Link from "next/link";
import { AllowLivePinsForm } from "@/components/routing/allow-live-pins-form";
import { InvoiceLifetimeForm } from "@/components/settings/invoice-lifetime-form";
import { WebhookSettings } from "@/components/settings/webhook-settings";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format";
import { getInvoiceLifetime } from "@/lib/merchants/settings";
import { getWebhookSettings } from "@/lib/webhooks/settings";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { user, merchant } = await requirePageViewer();
  const isOwner = user.role === "owner";
  const db = await getDb();
  const [webhooks, lifetime] = await Promise.all([getWebhookSettings(db, merchant.id), getInvoiceLifetime(db, merchant.id)]);
  const rows: [string, string][] = [
    ["Business name", merchant.name],
    ["Commerce account", merchant.commerceAccount],
    ["Merchant id", merchant.id],
    ["Created", formatDateTime(merchant.createdAt)],
  ];
  const you: [string, string][] = [
    ["Name", user.name],
    ["E-mail", user.email],
    ["Role", user.role],
  ];
  return (
    <>
      <PageHeader title="Settings" description="Your merchant account and your own profile." />
      <div className="grid gap-6 md:grid-cols-2">
        {[
          ["Merchant", rows],
          ["You", you],
        ].map(([title, items]) => (
          <section key={title as string} className="card" aria-label={title as string}>
            <h2 className="mb-3 text-base font-semibold">{title as string}</h2>
            <dl className="grid grid-cols-[10rem_1fr] gap-y-2 text-sm">
              {(items as [string, string][]).map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="text-slate-600">{k}</dt>
                  <dd className="font-mono text-slate-900 break-all">{v}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
      <section className="card mt-6 max-w-3xl" aria-labelledby="routing-settings">
        <h2 id="routing-settings" className="mb-3 text-base font-semibold">Routing</h2>
        {isOwner ? (
          <AllowLivePinsForm allowLivePins={merchant.allowLivePins} />
        ) : (
          <p className="text-sm text-slate-700" data-testid="allow-live-pins">
            Pinning live invoices to a connection is {merchant.allowLivePins ? "allowed" : "not allowed"}; an owner can change this.
          </p>
        )}
        <p className="mt-3 text-sm text-slate-600">
          The order connections take invoices in is on the <Link href="/routing" className="text-brand-700 underline">Routing</Link> page.
        </p>
      </section>
      {/* One card per setting group, each with its own heading; add new groups below. */}
      <section className="card mt-6 max-w-3xl" aria-labelledby="invoice-settings">
        <h2 id="invoice-settings" className="mb-3 text-base font-semibold">Invoices</h2>
        <InvoiceLifetimeForm lifetimeMinutes={lifetime?.lifetimeMinutes ?? 30} readOnly={!isOwner} />
      </section>
      <section className="card mt-6 max-w-3xl" aria-labelledby="webhook-settings">
        <h2 id="webhook-settings" className="mb-3 text-base font-semibold">Webhooks</h2>
        <WebhookSettings settings={webhooks} canEdit={isOwner} />
      </section>
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { SetupChecklist } from "@/components/home/setup-checklist";
import { StatusCounts } from "@/components/home/status-counts";
import { InvoiceTable } from "@/components/invoices/invoice-table";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getHomeSummary } from "@/lib/dashboard/home";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";

export const metadata: Metadata = { title: "Home" };

/**
 * Where members land after signing in. The setup checklist (whatever the view), then the
 * view's invoices: a count per status and the most recent ones.
 */
export default async function HomePage() {
  const viewer = await requirePageViewer();
  const mode = await getViewMode();
  const { checklist, counts, recent } = await getHomeSummary(await getDb(), viewer.merchant.id, mode);
  const modeName = mode === "test" ? "test" : "live";
  return (
    <>
      <PageHeader title="Home" description={`${viewer.merchant.name}: how far the setup is, and your ${modeName} invoices at a glance.`} />
      <div className="grid items-start gap-6 xl:grid-cols-2">
        <SetupChecklist checklist={checklist} role={viewer.user.role} />
        <StatusCounts counts={counts} mode={mode} />
      </div>
      <section className="card mt-6" aria-labelledby="recent-heading">
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="recent-heading" className="text-base font-semibold">Recent {modeName} invoices</h2>
          <Link href="/invoices" className="text-sm font-medium text-brand-700 underline underline-offset-4">
            Open the invoice list
          </Link>
        </div>
        {recent.length === 0 ? (
          <p className="text-sm text-slate-600">No {modeName} invoices yet.</p>
        ) : (
          <InvoiceTable invoices={recent} />
        )}
      </section>
    </>
  );
}

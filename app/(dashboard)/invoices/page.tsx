import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";

export const metadata: Metadata = { title: "Invoices" };

export default async function InvoicesPage() {
  await requirePageViewer();
  return (
    <>
      <PageHeader title="Invoices" description="Payment and payout invoices created through the invoice API." />
      <div className="card text-sm text-slate-600">No invoices yet.</div>
    </>
  );
}

import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";

export const metadata: Metadata = { title: "Providers" };

export default async function ProvidersPage() {
  await requirePageViewer("owner");
  return <PageHeader title="Providers" description="Connect the payment providers you hold accounts with." />;
}

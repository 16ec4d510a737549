import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";

export const metadata: Metadata = { title: "Connections" };

export default async function ConnectionsPage() {
  await requirePageViewer("owner");
  return <PageHeader title="Connections" description="Your provider connections." />;
}

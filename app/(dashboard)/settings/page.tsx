import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { formatDateTime } from "@/lib/format";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { user, merchant } = await requirePageViewer();
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
    </>
  );
}

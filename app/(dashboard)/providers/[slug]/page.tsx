import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ConnectSection } from "@/components/connections/connect-section";
import { ConnectionTable } from "@/components/connections/connection-table";
import { NewConnectionFormOnUse } from "@/components/connections/new-connection-form-on-use";
import { ProviderMark } from "@/components/providers/provider-mark";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { timeZoneInForce } from "@/lib/time-zones";
import { listConnections } from "@/lib/connections/queries";
import { getDb } from "@/lib/db/client";
import { getProvider, serviceLabel } from "@/lib/providers";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const provider = getProvider((await params).slug);
  return { title: provider?.name ?? "Provider" };
}

export default async function ProviderOverviewPage({ params }: Props) {
  const viewer = await requirePageViewer("connections.write");
  const provider = getProvider((await params).slug);
  if (!provider) notFound();
  const connections = await listConnections(await getDb(), viewer.merchant.id, { provider: provider.slug });
  return (
    <>
      <div className="flex items-start gap-4">
        <ProviderMark slug={provider.slug} name={provider.name} size="lg" />
        <div className="min-w-0 flex-1">
          <PageHeader title={provider.name} description={provider.summary} />
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <section className="card" aria-labelledby="kinds">
          <h2 id="kinds" className="mb-2 text-base font-semibold">
            Connection kinds
          </h2>
          <ul className="space-y-2 text-sm">
            {provider.kinds.map((k) => (
              <li key={k.kind}>
                <span className="font-medium">{k.label}</span> — {k.description}
              </li>
            ))}
          </ul>
          <h3 className="mt-4 mb-2 text-sm font-semibold">Where to find your credentials</h3>
          <p className="text-sm text-slate-700">{provider.credentialHelp}</p>
        </section>
        <section className="card overflow-x-auto" aria-labelledby="services">
          <h2 id="services" className="mb-2 text-base font-semibold">
            Services and currencies
          </h2>
          <table className="w-full text-left text-sm">
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-1 pr-4 font-medium">
                  Service
                </th>
                <th scope="col" className="py-1 font-medium">
                  Code in the API
                </th>
              </tr>
            </thead>
            <tbody>
              {provider.services.map((s) => (
                <tr key={s.code} className="border-t border-slate-100" data-testid={`service-${s.code}`}>
                  <td className="py-1 pr-4">{serviceLabel(s)}</td>
                  <td className="py-1 font-mono text-xs">{s.code}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
      <section className="card mt-6" aria-labelledby="existing">
        <h2 id="existing" className="mb-3 text-base font-semibold">
          Your {provider.name} connections
        </h2>
        <ConnectionTable connections={connections} showProvider={false} timeZone={timeZoneInForce(viewer)} />
      </section>
      <section className="card mt-6" aria-labelledby="new-connection">
        <h2 id="new-connection" className="mb-3 text-base font-semibold">
          New connection
        </h2>
        <ConnectSection
          kinds={provider.kinds.map((k) => ({ kind: k.kind, label: k.label, description: k.description }))}
          forms={Object.fromEntries(
            provider.kinds.map((k) => [k.kind, <NewConnectionFormOnUse key={k.kind} providerSlug={provider.slug} kindSlug={k.kind} />]),
          )}
        />
      </section>
    </>
  );
}

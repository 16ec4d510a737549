import type { Metadata } from "next";
import { Link } from "@/components/link";
import { ProviderMark } from "@/components/providers/provider-mark";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { HealthBadge } from "@/components/connections/badges";
import { countConnectionHealthByProvider, countConnectionsByProvider } from "@/lib/connections/queries";
import { getDb } from "@/lib/db/client";
import { PROVIDERS, serviceLabel } from "@/lib/providers";

export const metadata: Metadata = { title: "Providers" };

export default async function ProvidersPage() {
  const viewer = await requirePageViewer("connections.write");
  const db = await getDb();
  const [counts, health] = await Promise.all([countConnectionsByProvider(db, viewer.merchant.id), countConnectionHealthByProvider(db, viewer.merchant.id)]);
  return (
    <>
      <PageHeader title="Providers" description="Connect the payment provider accounts you hold. Invoices are routed to your enabled connections." />
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {PROVIDERS.map((p) => (
          <li key={p.slug} className="card flex flex-col">
            <h2 className="flex items-center gap-3 text-lg font-semibold">
              <ProviderMark slug={p.slug} name={p.name} />
              <Link href={`/providers/${p.slug}`} className="text-brand-700 underline-offset-2 hover:underline">
                {p.name}
              </Link>
            </h2>
            <p className="mt-1 flex-1 text-sm text-slate-600">{p.summary}</p>
            <dl className="mt-3 space-y-1 text-sm">
              <div>
                <dt className="inline text-slate-600">Kinds: </dt>
                <dd className="inline">{p.kinds.map((k) => k.label).join(", ")}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Services</dt>
                <dd>
                  <ul className="mt-0.5 space-y-0.5">
                    {p.services.map((s) => (
                      <li key={s.code}>
                        {serviceLabel(s)} <code className="font-mono text-xs text-slate-600">{s.code}</code>
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
              <div>
                <dt className="inline text-slate-600">Your connections: </dt>
                <dd className="inline" data-testid={`count-${p.slug}`}>
                  {counts[p.slug] ?? 0}
                </dd>
              </div>
              {counts[p.slug] ? (
                <div data-testid={`health-${p.slug}`}>
                  <dt className="inline text-slate-600">Health: </dt>
                  <dd className="inline-flex flex-wrap gap-1 align-middle">
                    {(["failing", "degraded", "healthy"] as const)
                      .filter((h) => health[p.slug]?.[h])
                      .map((h) => (
                        <span key={h} className="inline-flex items-center gap-1">
                          <HealthBadge health={h} /> <span className="tabular-nums">{health[p.slug]![h]}</span>
                        </span>
                      ))}
                  </dd>
                </div>
              ) : null}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

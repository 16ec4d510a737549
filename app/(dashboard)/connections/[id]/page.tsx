import type { Metadata } from "next";
import { Link } from "@/components/link";
import { notFound } from "next/navigation";
import { HealthBadge, ModeBadge, StateBadge } from "@/components/connections/badges";
import { HEALTH_RULE_TEXT } from "@/lib/analytics/connection-health";
import { readConnectionDisputeRate } from "@/lib/analytics/overview";
import { ConnectionControls } from "@/components/connections/connection-controls";
import { ConstantsPanelOnUse, EditConnectionFormOnUse } from "@/components/connections/connection-forms-on-use";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { callbackUrl } from "@/lib/callbacks/url";
import { listConnectionAudit } from "@/lib/audit/read";
import { getConnection } from "@/lib/connections/queries";
import { getDb } from "@/lib/db/client";
import { countRefundablePayments } from "@/lib/refunds/store";
import { countChargeableCardsOfConnection } from "@/lib/payment-methods/store";
import { timeZoneInForce } from "@/lib/time-zones";
import { formatDateTime } from "@/lib/format";
import { downloadableKeyFields } from "@/lib/connections/public-key-file";
import { getKind, getProvider, serviceLabelOf } from "@/lib/providers";
import { getSandboxFault } from "@/lib/sandbox/faults";
import { SandboxBehaviour } from "./sandbox-behaviour";

export const metadata: Metadata = { title: "Connection" };

export default async function ConnectionPage({ params }: { params: Promise<{ id: string }> }) {
  const viewer = await requirePageViewer("connections.write");
  const zone = timeZoneInForce(viewer);
  const db = await getDb();
  const { id } = await params;
  const connection = await getConnection(db, viewer.merchant.id, id);
  if (!connection) notFound();
  const provider = getProvider(connection.provider)!;
  const kind = getKind(connection.provider, connection.kind)!;
  const audit = await listConnectionAudit(db, viewer.merchant.id, connection.id);
  const downloads = downloadableKeyFields(connection.provider, connection.kind).filter((f) => typeof connection.publicValues[f.id] === "string");
  const serviceNames = connection.services.map(serviceLabelOf);
  const sandboxFault = connection.mode === "test" ? await getSandboxFault(db, connection.id) : undefined;
  const disputeRate = await readConnectionDisputeRate(db, viewer.merchant.id, connection);
  return (
    <>
      <PageHeader
        title={connection.label}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Link className="text-brand-700 underline" href={`/providers/${provider.slug}`}>
              {provider.name}
            </Link>{" "}
            · {kind.label} · <ModeBadge mode={connection.mode} /> <StateBadge enabled={connection.enabled} />{" "}
            <HealthBadge health={connection.health} testId="connection-health" />
          </span>
        }
      />
      <section className="card mb-6" aria-labelledby="health">
        <h2 id="health" className="mb-2 flex flex-wrap items-center gap-2 text-base font-semibold">
          Health <HealthBadge health={connection.health} />
        </h2>
        <p className="text-sm text-slate-600">{HEALTH_RULE_TEXT}</p>
        <dl className="mt-3 grid grid-cols-[minmax(6rem,8rem)_minmax(0,1fr)] gap-x-3 gap-y-2 text-sm sm:grid-cols-[minmax(7rem,12rem)_minmax(0,1fr)]">
          <dt className="text-slate-600">Since</dt>
          <dd>{connection.healthChangedAt ? formatDateTime(connection.healthChangedAt, zone) : "No change since it was added"}</dd>
          <dt className="text-slate-600">Last error</dt>
          <dd className="break-words" data-testid="connection-last-error">
            {connection.lastError
              ? `${formatDateTime(connection.lastError.at, zone)} · ${connection.lastError.resolution ?? "unknown outcome"}${connection.lastError.message ? ` · ${connection.lastError.message}` : ""}`
              : "None"}
          </dd>
          <dt className="text-slate-600">Dispute rate</dt>
          <dd data-testid="connection-dispute-rate">
            {disputeRate.rate === null ? "No payments" : `${(disputeRate.rate * 100).toFixed(1)}%`} · {disputeRate.disputes} disputed of {disputeRate.payments}{" "}
            payments in the last {disputeRate.days} days{connection.disputeRateHigh ? " · high enough to hold the health at degraded" : ""}
          </dd>
        </dl>
      </section>
      <div className="grid gap-6 xl:grid-cols-2">
        <section className="card" aria-labelledby="credentials">
          <h2 id="credentials" className="mb-3 text-base font-semibold">
            Credentials
          </h2>
          <dl className="grid grid-cols-[minmax(6rem,8rem)_minmax(0,1fr)] gap-x-3 sm:grid-cols-[minmax(7rem,12rem)_minmax(0,1fr)] gap-y-2 text-sm">
            {connection.credentials.map((c) => (
              <div key={c.id} className="contents">
                <dt className="text-slate-600">{c.label}</dt>
                <dd className="text-xs break-words" data-testid={`credential-${c.id}`}>
                  {c.secret ? (c.set ? `Set · ${c.display}` : "Not set") : c.display}
                  {c.id === "features" && c.display === "None" ? (
                    <span className="mt-0.5 block text-slate-600" data-testid="no-features">
                      {serviceNames.length
                        ? `No extra features: it still processes ${serviceNames.join(", ")}.`
                        : "No extra features, and no service to process."}
                    </span>
                  ) : null}
                </dd>
              </div>
            ))}
            <dt className="text-slate-600">
              <label htmlFor="callback-url">Callback URL</label>
            </dt>
            <dd>
              <input
                id="callback-url"
                className="input font-mono text-xs"
                readOnly
                value={callbackUrl(connection.provider, connection.id)}
                aria-describedby="callback-url-help"
                data-testid="callback-url"
              />
              <p id="callback-url-help" className="mt-1 text-xs text-slate-600">
                Register this address with {provider.name} for its payment notifications. They are verified with this connection&apos;s credentials (or{" "}
                {provider.name}&apos;s own key) before anything is changed.
              </p>
            </dd>
            <dt className="text-slate-600">Services</dt>
            <dd data-testid="connection-services">
              {connection.services.length === 0 ? (
                "None"
              ) : (
                <ul className="space-y-0.5">
                  {connection.services.map((code) => (
                    <li key={code}>
                      {serviceLabelOf(code)} <code className="font-mono text-xs text-slate-600">{code}</code>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
            <dt className="text-slate-600">Created</dt>
            <dd>{formatDateTime(connection.createdAt, zone)}</dd>
            <dt className="text-slate-600">Updated</dt>
            <dd>{formatDateTime(connection.updatedAt, zone)}</dd>
          </dl>
          {downloads.length ? (
            <div className="mt-4 flex flex-wrap gap-3">
              {downloads.map((f) => (
                <a
                  key={f.id}
                  className="btn-secondary"
                  href={`/connections/${connection.id}/public-key?field=${f.id}`}
                  download
                  data-testid={`download-${f.id}`}
                >
                  Download {f.label.toLowerCase()}
                </a>
              ))}
            </div>
          ) : null}
          <div className="mt-5">
            <ConnectionControls
              id={connection.id}
              label={connection.label}
              enabled={connection.enabled}
              services={connection.services}
              refundablePayments={await countRefundablePayments(db, viewer.merchant.id, connection.id)}
              savedCards={await countChargeableCardsOfConnection(db, viewer.merchant.id, connection.id)}
            />
          </div>
        </section>
        <section className="card" aria-labelledby="edit">
          <h2 id="edit" className="mb-3 text-base font-semibold">
            Edit
          </h2>
          <EditConnectionFormOnUse connection={connection} />
        </section>
      </div>
      <section className="card mt-6" aria-labelledby="constants">
        <h2 id="constants" className="mb-3 text-base font-semibold">
          Constants
        </h2>
        <ConstantsPanelOnUse connectionId={connection.id} providerSlug={connection.provider} kindSlug={connection.kind} stored={connection.constants} />
      </section>
      {sandboxFault !== undefined ? (
        <section className="card mt-6" aria-labelledby="sandbox-behaviour" data-testid="sandbox-behaviour">
          <h2 id="sandbox-behaviour" className="mb-3 text-base font-semibold">
            Sandbox behaviour
          </h2>
          <SandboxBehaviour id={connection.id} current={sandboxFault} />
        </section>
      ) : null}
      <section className="card mt-6" aria-labelledby="audit">
        <h2 id="audit" className="mb-3 text-base font-semibold">
          Audit trail
        </h2>
        {audit.length === 0 ? (
          <p className="text-sm text-slate-600">No changes recorded.</p>
        ) : (
          <ol className="space-y-2 text-sm" data-testid="audit-trail">
            {audit.map((entry) => (
              <li key={entry.id} className="border-t border-slate-100 pt-2">
                <span className="font-medium">{entry.action.replace("_", " ")}</span> by {entry.actor} ·{" "}
                <span className="text-slate-600">{formatDateTime(entry.createdAt, zone)}</span>
                {entry.changes.length ? <p className="font-mono text-xs text-slate-600">{entry.changes.join(", ")}</p> : null}
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}

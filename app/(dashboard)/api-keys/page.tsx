import type { Metadata } from "next";
import { Link } from "@/components/link";
import { CreateApiKeyForm } from "@/components/api-keys/create-api-key-form";
import { RevokeApiKeyButton } from "@/components/api-keys/revoke-api-key-button";
import { RollApiKeyButton } from "@/components/api-keys/roll-api-key-button";
import { ModeBadge } from "@/components/connections/badges";
import { PageHeader } from "@/components/shell/page-header";
import { API_KEY_SCOPE_LABELS } from "@/lib/api-keys/choices";
import { listApiKeys, type ApiKeySummary } from "@/lib/api-keys/queries";
import { canInMode } from "@/lib/identity/permissions";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { timeZoneInForce } from "@/lib/time-zones";
import { formatDateTime, formatRelative } from "@/lib/format";

export const metadata: Metadata = { title: "API keys" };

/** A moment as relative words, with the exact time (in the zone in force) in the title and the datetime attribute. */
function When({ at, now, zone }: { at: Date; now: Date; zone: string }) {
  return (
    <time dateTime={at.toISOString()} title={formatDateTime(at, zone)}>
      {formatRelative(at, now)}
    </time>
  );
}

function KeyState({ apiKey, now, zone }: { apiKey: ApiKeySummary; now: Date; zone: string }) {
  if (apiKey.revokedAt) return <span className="badge bg-slate-200 text-slate-700">Revoked {formatDateTime(apiKey.revokedAt, zone)}</span>;
  if (apiKey.expiresAt && apiKey.expiresAt <= now) {
    return <span className="badge bg-slate-200 text-slate-700">Expired {formatDateTime(apiKey.expiresAt, zone)}</span>;
  }
  if (apiKey.expiresAt) {
    return (
      <span className="badge bg-amber-100 text-amber-900" data-testid="api-key-expiry">
        Rolled: expires&nbsp;
        <When at={apiKey.expiresAt} now={now} zone={zone} />
      </span>
    );
  }
  return <span className="badge bg-green-100 text-green-800">Active</span>;
}

export default async function ApiKeysPage() {
  const viewer = await requirePageViewer("keys.manage");
  const zone = timeZoneInForce(viewer);
  const keys = await listApiKeys(await getDb(), viewer.merchant.id);
  const now = new Date();
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys authenticate the invoice and management APIs as <code>Authorization: Bearer &lt;key&gt;</code> for commerce account{" "}
            <code>{viewer.merchant.commerceAccount}</code>. A test key creates and reads test invoices only, a live key live ones only. A key is shown once; we
            keep only its hash.
          </>
        }
        actions={
          <Link href="/docs/api#authentication" className="btn-secondary">
            API reference
          </Link>
        }
      />
      <section className="card mb-6" aria-labelledby="new-key">
        <h2 id="new-key" className="mb-3 text-base font-semibold">
          New key
        </h2>
        <CreateApiKeyForm liveAllowed={canInMode(viewer.user.role, "keys.manage", "live")} />
      </section>
      <section className="card" aria-labelledby="keys">
        <h2 id="keys" className="mb-3 text-base font-semibold">
          Keys
        </h2>
        {keys.length === 0 ? (
          <p className="text-sm text-slate-600">No keys yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {keys.map((key) => {
              const usable = !key.revokedAt && !(key.expiresAt && key.expiresAt <= now);
              return (
                <li key={key.id} className="py-3 text-sm" data-testid="api-key-row" aria-labelledby={`key-${key.id}-name`}>
                  <div className="flex flex-wrap items-start justify-between gap-3">
                    <div className="min-w-0 space-y-1">
                      <p className="flex flex-wrap items-center gap-2">
                        <span id={`key-${key.id}-name`} className="font-medium break-words">
                          {key.name}
                        </span>
                        <ModeBadge mode={key.mode} />
                        <span className={`badge ${key.scope === "read_only" ? "bg-sky-100 text-sky-900" : "bg-slate-100 text-slate-700"}`}>
                          {API_KEY_SCOPE_LABELS[key.scope]}
                        </span>
                        <KeyState apiKey={key} now={now} zone={zone} />
                      </p>
                      <p className="font-mono text-xs text-slate-700">
                        {key.prefix}••••{key.lastFour}
                      </p>
                      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-slate-600">
                        <div>
                          <dt className="inline">Created </dt>
                          <dd className="inline">
                            {formatDateTime(key.createdAt, zone)}
                            {key.createdByName ? ` by ${key.createdByName}` : ""}
                          </dd>
                        </div>
                        <div>
                          <dt className="sr-only">Last used</dt>
                          <dd data-testid="api-key-last-used">
                            {key.lastUsedAt ? (
                              <>
                                Last used <When at={key.lastUsedAt} now={now} zone={zone} />
                              </>
                            ) : (
                              "Never used"
                            )}
                          </dd>
                        </div>
                      </dl>
                    </div>
                    {/* Always rendered: the roll dialog showing the new key must outlive the refresh that takes the Roll button away. */}
                    {canInMode(viewer.user.role, "keys.manage", key.mode) ? (
                      <div className="flex flex-wrap items-center gap-2">
                        <RollApiKeyButton id={key.id} name={key.name} mode={key.mode} canRoll={usable && !key.rolledTo} />
                        {usable ? <RevokeApiKeyButton id={key.id} name={key.name} /> : null}
                      </div>
                    ) : (
                      <p className="text-sm text-slate-600">Only an owner manages live keys.</p>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </>
  );
}

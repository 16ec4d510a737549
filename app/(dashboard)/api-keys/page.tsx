import type { Metadata } from "next";
import Link from "next/link";
import { CreateApiKeyForm } from "@/components/api-keys/create-api-key-form";
import { RevokeApiKeyButton } from "@/components/api-keys/revoke-api-key-button";
import { PageHeader } from "@/components/shell/page-header";
import { listApiKeys } from "@/lib/api-keys/queries";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const viewer = await requirePageViewer("owner");
  const keys = await listApiKeys(await getDb(), viewer.merchant.id);
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys authenticate the invoice and management APIs as <code>Authorization: Bearer &lt;key&gt;</code> for
            commerce account <code>{viewer.merchant.commerceAccount}</code>. A key is shown once; we keep only its hash.
          </>
        }
        actions={
          <Link href="/docs/api" className="btn-secondary">
            API reference
          </Link>
        }
      />
      <section className="card mb-6" aria-labelledby="new-key">
        <h2 id="new-key" className="mb-3 text-base font-semibold">
          New key
        </h2>
        <CreateApiKeyForm />
      </section>
      {/* Below md: name, key, state and Revoke; created and last used from md up. */}
      <section className="card overflow-x-auto" aria-labelledby="keys">
        <h2 id="keys" className="mb-3 text-base font-semibold">
          Keys
        </h2>
        {keys.length === 0 ? (
          <p className="text-sm text-slate-600">No keys yet.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="text-slate-600">
              <tr>
                <th className="py-2 pr-2 font-medium md:pr-4">Name</th>
                <th className="py-2 pr-2 font-medium md:pr-4">Key</th>
                <th className="hidden py-2 pr-4 font-medium md:table-cell">Created</th>
                <th className="hidden py-2 pr-4 font-medium md:table-cell">Last used</th>
                <th className="py-2 pr-2 font-medium md:pr-4">State</th>
                <th className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} className="border-t border-slate-100" data-testid="api-key-row">
                  <td className="py-2 pr-2 break-words md:pr-4">{key.name}</td>
                  <td className="py-2 pr-2 font-mono text-xs whitespace-nowrap md:pr-4">pok_••••{key.lastFour}</td>
                  <td className="hidden py-2 pr-4 md:table-cell">{formatDateTime(key.createdAt)}</td>
                  <td className="hidden py-2 pr-4 md:table-cell">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "Never"}</td>
                  <td className="py-2 pr-2 md:pr-4">
                    {key.revokedAt ? (
                      <span className="badge bg-slate-200 text-slate-700">Revoked {formatDateTime(key.revokedAt)}</span>
                    ) : (
                      <span className="badge bg-green-100 text-green-800">Active</span>
                    )}
                  </td>
                  <td className="py-2">{key.revokedAt ? null : <RevokeApiKeyButton id={key.id} name={key.name} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

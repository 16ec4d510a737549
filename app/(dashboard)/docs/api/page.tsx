import type { Metadata } from "next";
import { Link } from "@/components/link";
import { OperationSection } from "@/components/api-reference/operation-view";
import { ReferenceSearch } from "@/components/api-reference/reference-search";
import { MethodBadge } from "@/components/api-reference/method-badge";
import { SchemaTable } from "@/components/api-reference/schema-table";
import { PageHeader } from "@/components/shell/page-header";
import { publicBaseUrl } from "@/lib/config";
import { requirePageViewer } from "@/lib/auth/viewer";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { apiReferenceFor, matchesSearch } from "@/lib/api/openapi/reference";
import { canAnyMode } from "@/lib/identity/permissions";

export const metadata: Metadata = { title: "API reference" };

const DOCUMENT_URL = "/api/commerce/openapi.json";

/**
 * The API reference, rendered on the server from the OpenAPI document GET /api/commerce/openapi.json
 * serves (invoices and the management API in one), with the examples written for the signed-in
 * merchant's commerce account. Everything reads without JavaScript; two small islands add the live
 * search and, per operation, a Try it form that loads when first opened.
 */
export default async function ApiReferencePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const viewer = await requirePageViewer("docs.read");
  const seesKeys = canAnyMode(viewer.user.role, "keys.manage");
  const composes = canAnyMode(viewer.user.role, "invoices.compose");
  const raw = (await searchParams).q;
  const query = (Array.isArray(raw) ? raw[0] : raw)?.slice(0, 200) ?? "";
  // The examples carry this merchant's commerce account, so Try it sends a body the API accepts from its keys.
  const baseUrl = publicBaseUrl();
  const account = viewer.merchant.commerceAccount;
  const reference = apiReferenceFor(baseUrl, account, () => buildOpenApiDocument({ baseUrl, commerceAccount: account }));
  const shown = (operationMatches: boolean) => !query || operationMatches;
  const rawLink = (
    <a href={DOCUMENT_URL} className="font-mono text-brand-700 underline">
      {DOCUMENT_URL}
    </a>
  );
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            {reference.title} {reference.version}, from the OpenAPI 3.1 document at {rawLink}: the invoice API and the management API (connections, routing,
            providers). {reference.description}
          </>
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <a href={DOCUMENT_URL} className="btn-secondary">
              OpenAPI document (JSON)
            </a>
            {seesKeys ? (
              <Link href="/api-keys" className="btn-secondary">
                API keys
              </Link>
            ) : null}
            {composes ? (
              <Link href="/invoices/new" className="btn-secondary">
                Try it in the composer
              </Link>
            ) : null}
          </div>
        }
      />
      <div className="min-w-0 space-y-6 text-sm text-slate-800" data-testid="api-reference">
        <section className="card space-y-2" aria-labelledby="api-basics">
          <h2 id="api-basics" className="text-base font-semibold">
            Base URL and authentication
          </h2>
          <p>
            Base URL{" "}
            <code className="font-mono wrap-anywhere" data-testid="api-base-url">
              {reference.baseUrl}
            </code>
            . Every request sends <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> with a key from{" "}
            {seesKeys ? (
              <Link href="/api-keys" className="text-brand-700 underline">
                API keys
              </Link>
            ) : (
              "API keys (an owner or a developer makes them)"
            )}
            ; bodies are <code className="font-mono">application/vnd.api+json</code> (or <code className="font-mono">application/json</code>). Events come to
            you as{" "}
            <Link href="/docs/webhooks" className="text-brand-700 underline">
              webhooks
            </Link>
            .
          </p>
          <p id="authentication" className="scroll-mt-4">
            A key has a mode, which its start shows: <code className="font-mono">pok_test_…</code> creates and reads test invoices only,{" "}
            <code className="font-mono">pok_live_…</code> live ones only (keys made before modes, plain <code className="font-mono">pok_…</code>, are test
            keys). An invoice of the other mode answers 404, as do its attempts and refunds; lists show the key&apos;s mode only; a create in the other mode
            answers 403 <code className="font-mono">key_mode_mismatch</code> at <code className="font-mono">/data/attributes/test_mode</code>. A read-only key
            may only send GET: anything else answers 403 <code className="font-mono">insufficient_scope</code>. Rolling a key makes a new one and keeps the old
            one working for the grace period chosen; after it, and after a revoke, the old key answers 401 <code className="font-mono">invalid_api_key</code>.
            In each operation&apos;s Try it form, the key you paste goes in that Authorization header.
          </p>
        </section>

        <section className="card space-y-4" aria-labelledby="api-contents">
          <h2 id="api-contents" className="text-base font-semibold">
            Operations
          </h2>
          <ReferenceSearch initial={query} total={reference.operationCount} />
          <nav aria-label="Operations by group" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {reference.tags.map((tag) => (
              <div key={tag.name}>
                <p className="font-medium capitalize">
                  <a href={`#tag-${tag.name}`} className="text-brand-700 underline">
                    {tag.name}
                  </a>
                </p>
                <ul className="mt-1 space-y-1">
                  {tag.operations.map((operation) => (
                    <li key={operation.id} data-toc={operation.id} hidden={!shown(matchesSearch(operation, query))}>
                      <a href={`#${operation.id}`} className="flex items-start gap-2 rounded hover:bg-slate-50">
                        <MethodBadge method={operation.method} />
                        <span className="font-mono text-xs wrap-anywhere text-slate-800">{operation.path}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </section>

        {reference.tags.map((tag) => {
          const anyShown = tag.operations.some((operation) => shown(matchesSearch(operation, query)));
          return (
            <section
              key={tag.name}
              id={`tag-${tag.name}`}
              data-tag-group={tag.name}
              hidden={!anyShown}
              aria-labelledby={`tag-${tag.name}-title`}
              className="min-w-0 scroll-mt-4 space-y-4"
            >
              <div>
                <h2 id={`tag-${tag.name}-title`} className="text-lg font-semibold capitalize">
                  {tag.name}
                </h2>
                {tag.description ? <p className="text-slate-600">{tag.description}</p> : null}
              </div>
              {tag.operations.map((operation) => (
                <OperationSection key={operation.id} operation={operation} hidden={!shown(matchesSearch(operation, query))} />
              ))}
            </section>
          );
        })}

        <section aria-labelledby="api-schemas" className="min-w-0 space-y-4">
          <div>
            <h2 id="api-schemas" className="text-lg font-semibold">
              Answer schemas
            </h2>
            <p className="text-slate-600">The bodies the operations answer with, named as in the document; every error answer carries an ErrorDocument.</p>
          </div>
          {reference.schemas.map((schema) => (
            <section
              key={schema.name}
              id={`schema-${schema.name}`}
              aria-labelledby={`schema-${schema.name}-title`}
              className="card min-w-0 scroll-mt-4 space-y-2 target:ring-2 target:ring-brand-600"
            >
              <h3 id={`schema-${schema.name}-title`} className="font-mono text-base font-semibold">
                {schema.name}
              </h3>
              {schema.description ? <p className="text-slate-700">{schema.description}</p> : null}
              <SchemaTable rows={schema.rows} caption={`${schema.name} members`} />
            </section>
          ))}
        </section>
      </div>
    </>
  );
}

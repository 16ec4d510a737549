import type { Metadata } from "next";
import { Link } from "@/components/link";
import { AnchorRedirect } from "@/components/api-reference/anchor-redirect";
import { MethodBadge } from "@/components/api-reference/method-badge";
import { DOCUMENT_URL, ReferenceActions } from "@/components/api-reference/reference-actions";
import { ReferenceSearch } from "@/components/api-reference/reference-search";
import { PageHeader } from "@/components/shell/page-header";
import { anchorTargets, operationHref, searchOperations, tagHref, tagTitle, type OperationView } from "@/lib/api/openapi/reference";
import { loadReference, searchQuery } from "./load-reference";

export const metadata: Metadata = { title: "API reference" };

function OperationLink({ operation, showTag }: { operation: OperationView; showTag?: boolean }) {
  return (
    <Link href={operationHref(operation)} className="flex items-start gap-2 rounded hover:bg-slate-50">
      <MethodBadge method={operation.method} />
      <span className="min-w-0">
        <span className="block font-mono text-xs wrap-anywhere text-slate-800">{operation.path}</span>
        <span className="block text-xs text-slate-600">
          {operation.summary}
          {showTag ? ` · ${tagTitle(operation.tag)}` : null}
        </span>
      </span>
    </Link>
  );
}

/**
 * The API reference's index, rendered on the server from the OpenAPI document GET
 * /api/commerce/openapi.json serves (invoices and the management API in one): base URL and
 * authentication, the search over every group (?q=, a GET form), and each group's operations linked
 * to the group's own page (/docs/api/<tag>), where they are shown in full. Each entry carries the
 * operation's id, so an old link (/docs/api#createRefund) lands on it without JavaScript, and goes
 * straight to the operation with it (AnchorRedirect).
 */
export default async function ApiReferencePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { reference, seesKeys, composes } = await loadReference();
  const query = await searchQuery(searchParams);
  const results = query ? searchOperations(reference, query) : [];
  return (
    <>
      <AnchorRedirect targets={anchorTargets(reference)} />
      <PageHeader
        title="API reference"
        description={
          <>
            {reference.title} {reference.version}, from the OpenAPI 3.1 document at{" "}
            <a href={DOCUMENT_URL} className="font-mono text-brand-700 underline">
              {DOCUMENT_URL}
            </a>
            : the invoice API and the management API (connections, routing, providers).
          </>
        }
        actions={<ReferenceActions seesKeys={seesKeys} composes={composes} />}
      />
      <div className="min-w-0 space-y-6 text-sm text-slate-800" data-testid="api-reference">
        <section className="card space-y-4" aria-labelledby="api-search-title">
          <h2 id="api-search-title" className="text-base font-semibold">
            Search
          </h2>
          <ReferenceSearch initial={query} describedBy={query ? "api-search-count" : undefined} />
          {query ? (
            <div className="space-y-2" data-testid="api-search-results">
              <p id="api-search-count" role="status" className="text-slate-700">
                {results.length === 0
                  ? `No operation matches “${query}”. Try a method, a path, an operationId or a word of a summary, or browse the groups below.`
                  : `${results.length} of ${reference.operationCount} operations match “${query}”.`}{" "}
                <Link href="/docs/api" className="text-brand-700 underline">
                  Clear the search
                </Link>
              </p>
              {results.length > 0 ? (
                <ul className="space-y-2" aria-label="Search results">
                  {results.map((operation) => (
                    <li key={operation.id} data-result={operation.id}>
                      <OperationLink operation={operation} showTag />
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
        </section>

        <section className="card space-y-2" aria-labelledby="api-basics">
          <h2 id="api-basics" className="text-base font-semibold">
            Base URL, authentication and conventions
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
          {reference.description ? (
            <p id="conventions" className="scroll-mt-4 text-slate-700">
              {reference.description}
            </p>
          ) : null}
        </section>

        <section className="space-y-4" aria-labelledby="api-contents">
          <h2 id="api-contents" className="text-lg font-semibold">
            Operations by group
          </h2>
          <p className="text-slate-600">
            {reference.operationCount} operations in {reference.tags.length} groups. Each group&apos;s page shows its operations in full: parameters, request
            and answer schemas, examples for your account, error answers and a Try it form.
          </p>
          <div className="grid gap-4 lg:grid-cols-2">
            {reference.tags.map((tag) => (
              <section key={tag.name} id={`tag-${tag.name}`} data-tag-group={tag.name} aria-labelledby={`tag-${tag.name}-title`} className="card space-y-2">
                <h3 id={`tag-${tag.name}-title`} className="text-base font-semibold">
                  <Link href={tagHref(tag.name)} className="text-brand-700 underline">
                    {tagTitle(tag.name)}
                  </Link>
                </h3>
                {tag.description ? <p className="text-slate-600">{tag.description}</p> : null}
                <ul className="space-y-2">
                  {tag.operations.map((operation) => (
                    <li key={operation.id} id={operation.id} data-toc={operation.id} className="scroll-mt-4 rounded target:ring-2 target:ring-brand-600">
                      <OperationLink operation={operation} />
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        </section>
      </div>
    </>
  );
}

import type { Metadata } from "next";
import { Link } from "@/components/link";
import { notFound } from "next/navigation";
import { MethodBadge } from "@/components/api-reference/method-badge";
import { OperationSection } from "@/components/api-reference/operation-view";
import { ReferenceActions } from "@/components/api-reference/reference-actions";
import { ReferenceSearch } from "@/components/api-reference/reference-search";
import { SchemaTable } from "@/components/api-reference/schema-table";
import { PageHeader } from "@/components/shell/page-header";
import { findTag, schemasOfTag, tagHref, tagTitle } from "@/lib/api/openapi/reference";
import { loadReference } from "../load-reference";

type Props = { params: Promise<{ tag: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { tag } = await params;
  return { title: `${tagTitle(tag.slice(0, 40))} · API reference` };
}

/**
 * One group (an OpenAPI tag) of the API reference, rendered on the server: each operation with its
 * parameters, request body and answers as tables, the examples written for the signed-in
 * merchant's account, error answers, a deep link (its operationId) and the Try it island (its form
 * loads when first opened); then the answer schemas these operations name. One group at a time
 * keeps the page small enough for a phone: the whole reference on one page was thousands of table
 * cells. It reads completely without JavaScript.
 */
export default async function ApiReferenceTagPage({ params }: Props) {
  const { reference, seesKeys, composes } = await loadReference();
  const tag = findTag(reference, (await params).tag);
  if (!tag) notFound();
  const schemas = schemasOfTag(reference, tag);
  const title = tagTitle(tag.name);
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/docs/api" className="text-brand-700 underline">
          API reference
        </Link>{" "}
        <span aria-hidden="true" className="text-slate-500">
          /
        </span>{" "}
        <span aria-current="page">{title}</span>
      </nav>
      <PageHeader title={title} description={tag.description} actions={<ReferenceActions seesKeys={seesKeys} composes={composes} />} />
      <div className="min-w-0 space-y-6 text-sm text-slate-800" data-testid="api-reference" data-tag-page={tag.name}>
        <div className="card space-y-4">
          <p>
            Base URL{" "}
            <code className="font-mono wrap-anywhere" data-testid="api-base-url">
              {reference.baseUrl}
            </code>
            ; every request sends <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> (
            <Link href="/docs/api#authentication" className="text-brand-700 underline">
              keys and their modes
            </Link>
            ).
          </p>
          <ReferenceSearch initial="" />
          <div className="grid gap-4 sm:grid-cols-2">
            <nav aria-labelledby="tag-contents">
              <h2 id="tag-contents" className="font-medium">
                On this page
              </h2>
              <ul className="mt-1 space-y-1">
                {tag.operations.map((operation) => (
                  <li key={operation.id}>
                    <a href={`#${operation.id}`} className="flex items-start gap-2 rounded hover:bg-slate-50">
                      <MethodBadge method={operation.method} />
                      <span className="font-mono text-xs wrap-anywhere text-slate-800">{operation.path}</span>
                    </a>
                  </li>
                ))}
                {schemas.length > 0 ? (
                  <li>
                    <a href="#api-schemas" className="text-brand-700 underline">
                      Answer schemas
                    </a>
                  </li>
                ) : null}
              </ul>
            </nav>
            <nav aria-labelledby="tag-others">
              <h2 id="tag-others" className="font-medium">
                Other groups
              </h2>
              <ul className="mt-1 space-y-1">
                {reference.tags
                  .filter((other) => other.name !== tag.name)
                  .map((other) => (
                    <li key={other.name}>
                      <Link href={tagHref(other.name)} className="text-brand-700 underline">
                        {tagTitle(other.name)}
                      </Link>{" "}
                      <span className="text-slate-600">({other.operations.length})</span>
                    </li>
                  ))}
              </ul>
            </nav>
          </div>
        </div>

        <section aria-labelledby="tag-operations" className="min-w-0 space-y-4" data-tag-group={tag.name}>
          <h2 id="tag-operations" className="text-lg font-semibold">
            Operations
          </h2>
          {tag.operations.map((operation) => (
            <OperationSection key={operation.id} operation={operation} />
          ))}
        </section>

        {schemas.length > 0 ? (
          <section aria-labelledby="api-schemas-title" className="min-w-0 scroll-mt-4 space-y-4" id="api-schemas">
            <div>
              <h2 id="api-schemas-title" className="text-lg font-semibold">
                Answer schemas
              </h2>
              <p className="text-slate-600">The bodies these operations answer with, named as in the document; every error answer carries an ErrorDocument.</p>
            </div>
            {schemas.map((schema) => (
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
                {schema.itemsAs ? (
                  <p className="text-slate-700" data-items-as={schema.itemsAs}>
                    Each item of <code className="font-mono">data</code> has the members of{" "}
                    <a href={`#schema-${schema.itemsAs}`} className="font-mono text-brand-700 underline">
                      {schema.itemsAs}
                    </a>
                    &apos;s <code className="font-mono">data</code>.
                  </p>
                ) : null}
                <SchemaTable rows={schema.rows} caption={`${schema.name} members`} />
              </section>
            ))}
          </section>
        ) : null}
      </div>
    </>
  );
}

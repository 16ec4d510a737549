import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { PageHeader } from "@/components/shell/page-header";
import { publicBaseUrl } from "@/lib/config";
import { requirePageViewer } from "@/lib/auth/viewer";
import { buildOpenApiDocument } from "@/lib/invoices/contract";
import { childrenOf, describeSchema, listOperations, type Json, type Operation } from "./openapi-view";

export const metadata: Metadata = { title: "API reference" };

const METHOD_STYLE: Record<string, string> = {
  get: "bg-sky-100 text-sky-900",
  post: "bg-green-100 text-green-900",
  put: "bg-amber-100 text-amber-900",
  patch: "bg-amber-100 text-amber-900",
  delete: "bg-red-100 text-red-900",
};

const schemaAnchor = (name: string) => `schema-${name}`;

function MethodBadge({ method }: { method: string }) {
  return <span className={`badge font-mono uppercase ${METHOD_STYLE[method] ?? "bg-slate-100 text-slate-800"}`}>{method}</span>;
}

function SchemaLink({ name }: { name: string }) {
  return (
    <a href={`#${schemaAnchor(name)}`} className="font-mono text-brand-700 underline">
      {name}
    </a>
  );
}

/** A schema's members as nested lists; deeper levels fold away in <details> (keyboard-operable as is). */
function SchemaMembers({ schema, depth }: { schema: Json; depth: number }): ReactNode {
  const members = childrenOf(schema);
  if (members.length === 0 || depth > 8) return null;
  return (
    <ul className={`space-y-1 ${depth > 0 ? "mt-1 border-l border-slate-200 pl-4" : ""}`}>
      {members.map((member) => {
        const nested = childrenOf(member.schema).length > 0;
        const line = (
          <>
            <code className="font-mono font-medium text-slate-900">{member.label}</code>
            {member.required ? <span className="ml-1 text-xs font-medium text-red-700">required</span> : null}
            <span className="ml-2 text-xs text-slate-600">{describeSchema(member.schema)}</span>
          </>
        );
        const description = typeof member.schema.description === "string" ? <p className="text-xs text-slate-600">{member.schema.description}</p> : null;
        return (
          <li key={member.label}>
            {nested ? (
              <details open={depth < 1}>
                <summary className="cursor-pointer">{line}</summary>
                {description}
                <SchemaMembers schema={member.schema} depth={depth + 1} />
              </details>
            ) : (
              <>
                {line}
                {description}
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function OperationSection({ op }: { op: Operation }) {
  return (
    <section id={op.id} className="card scroll-mt-4 space-y-4" aria-labelledby={`${op.id}-title`} data-testid="api-operation">
      <header>
        <h2 id={`${op.id}-title`} className="flex flex-wrap items-center gap-2 text-base font-semibold">
          <MethodBadge method={op.method} />
          <code className="font-mono break-all">{op.path}</code>
        </h2>
        {op.summary ? <p className="mt-1 font-medium text-slate-800">{op.summary}</p> : null}
        {op.description ? <p className="mt-1 text-slate-700">{op.description}</p> : null}
      </header>
      {op.parameters.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="w-full text-left">
            <caption className="mb-1 text-left font-semibold">Parameters</caption>
            <thead className="text-slate-600">
              <tr>
                <th className="py-1 pr-4 font-medium">Name</th>
                <th className="py-1 pr-4 font-medium">In</th>
                <th className="py-1 pr-4 font-medium">Type</th>
                <th className="py-1 font-medium">Description</th>
              </tr>
            </thead>
            <tbody>
              {op.parameters.map((p) => (
                <tr key={`${p.in}-${p.name}`} className="border-t border-slate-100 align-top">
                  <td className="py-1 pr-4">
                    <code className="font-mono">{p.name}</code>
                    {p.required ? <span className="ml-1 text-xs font-medium text-red-700">required</span> : null}
                  </td>
                  <td className="py-1 pr-4">{p.in}</td>
                  <td className="py-1 pr-4 text-xs">{describeSchema(p.schema)}</td>
                  <td className="py-1 text-xs text-slate-700">{p.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {op.requestBody ? (
        <div>
          <h3 className="font-semibold">Request body{op.requestBody.required ? " (required)" : ""}</h3>
          <p className="text-slate-700">
            {op.requestBody.schemaName ? <SchemaLink name={op.requestBody.schemaName} /> : "Any"} as{" "}
            {op.requestBody.mediaTypes.map((type, i) => (
              <span key={type}>
                {i > 0 ? " or " : null}
                <code className="font-mono">{type}</code>
              </span>
            ))}
          </p>
        </div>
      ) : null}
      <div className="overflow-x-auto">
        <table className="w-full text-left">
          <caption className="mb-1 text-left font-semibold">Responses</caption>
          <thead className="text-slate-600">
            <tr>
              <th className="py-1 pr-4 font-medium">Status</th>
              <th className="py-1 pr-4 font-medium">Meaning</th>
              <th className="py-1 font-medium">Body</th>
            </tr>
          </thead>
          <tbody>
            {op.responses.map((r) => (
              <tr key={r.status} className="border-t border-slate-100 align-top">
                <td className="py-1 pr-4 font-mono">{r.status}</td>
                <td className="py-1 pr-4 text-slate-700">
                  {r.description}
                  {r.headers.map((h) => (
                    <span key={h.name} className="block text-xs text-slate-600">
                      Header <code className="font-mono">{h.name}</code>
                      {h.description ? `: ${h.description}` : null}
                    </span>
                  ))}
                </td>
                <td className="py-1">{r.schemaName ? <SchemaLink name={r.schemaName} /> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * Issue 12: the invoice API's reference, rendered on the server from the very document
 * GET /api/commerce/openapi.json serves (same builder, same base URL rule). Own renderer rather than
 * Scalar/Redoc: the versions this registry holds need Node 22 (the project runs on 20) and ~270
 * packages; this page ships no JavaScript and fetches nothing, so no other page's bundle grows.
 */
export default async function ApiReferencePage() {
  await requirePageViewer();
  const doc = buildOpenApiDocument({ baseUrl: publicBaseUrl() });
  const info = (doc.info ?? {}) as Json;
  const server = ((doc.servers as Json[] | undefined)?.[0]?.url as string | undefined) ?? "";
  const operations = listOperations(doc);
  const schemas = Object.entries(((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>);
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            {String(info.title ?? "")} {String(info.version ?? "")}, from the OpenAPI 3.1 document at{" "}
            <a href="/api/commerce/openapi.json" className="font-mono text-brand-700 underline">
              /api/commerce/openapi.json
            </a>
            . {String(info.description ?? "")}
          </>
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <Link href="/api-keys" className="btn-secondary">
              API keys
            </Link>
            <Link href="/invoices/new" className="btn-secondary">
              Try it in the composer
            </Link>
          </div>
        }
      />
      <div className="grid gap-6 text-sm text-slate-800 xl:grid-cols-[18rem_minmax(0,1fr)]">
        <nav aria-label="Endpoints" className="xl:sticky xl:top-4 xl:max-h-[calc(100vh-2rem)] xl:self-start xl:overflow-y-auto">
          <ul className="card space-y-1 p-3">
            {operations.map((op) => (
              <li key={op.id}>
                <a href={`#${op.id}`} className="flex items-start gap-2 rounded px-1 py-0.5 hover:bg-slate-100">
                  <MethodBadge method={op.method} />
                  <span className="font-mono text-xs break-all">{op.path}</span>
                </a>
              </li>
            ))}
            <li>
              <a href="#schemas" className="block rounded px-1 py-0.5 font-medium hover:bg-slate-100">
                Schemas
              </a>
            </li>
          </ul>
        </nav>
        <div className="min-w-0 space-y-6">
          <section className="card space-y-2" aria-labelledby="api-basics">
            <h2 id="api-basics" className="text-base font-semibold">
              Base URL and authentication
            </h2>
            <p>
              Base URL <code className="font-mono" data-testid="api-base-url">{server}</code>. Every request sends{" "}
              <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> with a key from{" "}
              <Link href="/api-keys" className="text-brand-700 underline">
                API keys
              </Link>
              ; bodies are <code className="font-mono">application/vnd.api+json</code> (or <code className="font-mono">application/json</code>). Events come to
              you as{" "}
              <Link href="/docs/webhooks" className="text-brand-700 underline">
                webhooks
              </Link>
              .
            </p>
          </section>
          {operations.map((op) => (
            <OperationSection key={op.id} op={op} />
          ))}
          <section id="schemas" className="card scroll-mt-4 space-y-4" aria-labelledby="schemas-title">
            <h2 id="schemas-title" className="text-base font-semibold">
              Schemas
            </h2>
            {schemas.map(([name, schema]) => (
              <section key={name} id={schemaAnchor(name)} className="scroll-mt-4 border-t border-slate-100 pt-3" aria-labelledby={`${schemaAnchor(name)}-title`}>
                <h3 id={`${schemaAnchor(name)}-title`} className="font-mono font-semibold">
                  {name}
                </h3>
                <p className="text-xs text-slate-600">{describeSchema(schema)}</p>
                <SchemaMembers schema={schema} depth={0} />
              </section>
            ))}
          </section>
        </div>
      </div>
    </>
  );
}

import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { swaggerUiAssetUrl } from "@/app/api/docs-assets/swagger-ui-dist";
import { PageHeader } from "@/components/shell/page-header";
import { publicBaseUrl } from "@/lib/config";
import { requirePageViewer } from "@/lib/auth/viewer";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { SwaggerUiViewer } from "./swagger-ui-viewer";
import "./api-reference.css";
import { canAnyMode } from "@/lib/identity/permissions";

export const metadata: Metadata = { title: "API reference" };

const DOCUMENT_URL = "/api/commerce/openapi.json";

/**
 * The invoice API's reference. Swagger UI (swagger-ui-dist, a prebuilt bundle: Scalar and
 * Redoc 3 need Node 22) renders in the browser the document GET /api/commerce/openapi.json serves,
 * with the examples written for the signed-in merchant (its commerce account). Its bundle and
 * stylesheet come from this server (/api/docs-assets/<version>/…) and load on this page only: the
 * stylesheet link and the script tag are rendered here, nowhere else. The header and base URL are
 * rendered on the server, so the page says where the document is even before (or without) the script.
 */
export default async function ApiReferencePage() {
  const viewer = await requirePageViewer("docs.read");
  const seesKeys = canAnyMode(viewer.user.role, "keys.manage");
  const composes = canAnyMode(viewer.user.role, "invoices.compose");
  // The examples carry this merchant's commerce account, so Try it out sends a body the API accepts from its keys.
  const doc = buildOpenApiDocument({ baseUrl: publicBaseUrl(), commerceAccount: viewer.merchant.commerceAccount });
  const info = (doc.info ?? {}) as { title?: string; version?: string; description?: string };
  const server = (doc.servers as { url?: string }[] | undefined)?.[0]?.url ?? "";
  // proxy.ts's Content-Security-Policy nonce (header "x-nonce"): the viewer's script tag carries it.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  const [bundleUrl, stylesheetUrl] = await Promise.all([swaggerUiAssetUrl("swagger-ui-bundle.js"), swaggerUiAssetUrl("swagger-ui.css")]);
  const rawLink = (
    <a href={DOCUMENT_URL} className="font-mono text-brand-700 underline">
      {DOCUMENT_URL}
    </a>
  );
  return (
    <>
      {/* React puts the stylesheet in <head> and shows the page once it has loaded. */}
      <link rel="stylesheet" href={stylesheetUrl} precedence="default" nonce={nonce} />
      <PageHeader
        title="API reference"
        description={
          <>
            {info.title} {info.version}, from the OpenAPI 3.1 document at {rawLink}. {info.description}
          </>
        }
        actions={
          <div className="flex flex-wrap gap-2">
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
      <div className="min-w-0 space-y-6 text-sm text-slate-800">
        <section className="card space-y-2" aria-labelledby="api-basics">
          <h2 id="api-basics" className="text-base font-semibold">
            Base URL and authentication
          </h2>
          <p>
            Base URL <code className="font-mono wrap-anywhere" data-testid="api-base-url">{server}</code>. Every request sends{" "}
            <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> with a key from{" "}
            {seesKeys ? (
              <Link href="/api-keys" className="text-brand-700 underline">
                API keys
              </Link>
            ) : (
              "API keys (an owner or a developer makes them)"
            )}
            ; bodies are <code className="font-mono">application/vnd.api+json</code> (or <code className="font-mono">application/json</code>). Events come to you
            as{" "}
            <Link href="/docs/webhooks" className="text-brand-700 underline">
              webhooks
            </Link>
            .
          </p>
          <p id="authentication">
            A key has a mode, which its start shows: <code className="font-mono">pok_test_…</code> creates and reads test invoices only,{" "}
            <code className="font-mono">pok_live_…</code> live ones only (keys made before modes, plain <code className="font-mono">pok_…</code>, are test
            keys). An invoice of the other mode answers 404, as do its attempts and refunds; lists show the key&apos;s mode only; a create in the
            other mode answers 403 <code className="font-mono">key_mode_mismatch</code> at <code className="font-mono">/data/attributes/test_mode</code>.
            A read-only key may only send GET: anything else answers 403 <code className="font-mono">insufficient_scope</code>. Rolling a key makes a new
            one and keeps the old one working for the grace period chosen; after it, and after a revoke, the old key answers 401{" "}
            <code className="font-mono">invalid_api_key</code>.
          </p>
        </section>
        <section className="card min-w-0 p-0" aria-labelledby="api-operations">
          <h2 id="api-operations" className="sr-only">
            Operations and schemas
          </h2>
          <noscript>
            <p className="p-5">The interactive reference needs JavaScript. The document itself is at {rawLink}.</p>
          </noscript>
          <SwaggerUiViewer bundleUrl={bundleUrl} documentUrl={DOCUMENT_URL} spec={doc} nonce={nonce} />
        </section>
      </div>
    </>
  );
}

import { Link } from "@/components/link";

export const DOCUMENT_URL = "/api/commerce/openapi.json";

/** The header's links on every page of the reference: the raw document (one click away), API keys, the composer. */
export function ReferenceActions({ seesKeys, composes }: { seesKeys: boolean; composes: boolean }) {
  return (
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
  );
}

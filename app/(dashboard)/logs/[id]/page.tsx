import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Link } from "@/components/link";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format";
import { canInMode } from "@/lib/identity/permissions";
import { getRequestLogEntry } from "@/lib/request-log/read";
import { timeZoneInForce } from "@/lib/time-zones";

type Params = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Request" };

/** A body as stored (already redacted and cut), indented when it is whole JSON. */
function shown(text: string): string {
  if (!text) return "";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function Body({ id, title, text, truncated }: { id: string; title: string; text: string; truncated: boolean }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="min-w-0">
      <h2 id={`${id}-heading`} className="mb-2 text-base font-semibold">
        {title}
      </h2>
      {text ? (
        <pre
          aria-label={title}
          tabIndex={0}
          data-testid={id}
          className="max-h-[32rem] overflow-auto rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed whitespace-pre-wrap text-slate-100 wrap-anywhere focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {shown(text)}
        </pre>
      ) : (
        <p className="text-sm text-slate-600" data-testid={id}>
          No body.
        </p>
      )}
      {truncated ? <p className="mt-1 text-xs text-slate-600">Cut at 16 kB.</p> : null}
    </section>
  );
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{term}</dt>
      <dd className="mt-0.5 text-sm wrap-anywhere">{children}</dd>
    </div>
  );
}

/** One request: what it was and who sent it, and its request and response bodies side by side (stacked on a phone). */
export default async function RequestLogEntryPage({ params }: Params) {
  const viewer = await requirePageViewer("logs.read");
  const { id } = await params;
  const entry = await getRequestLogEntry(await getDb(), viewer.merchant.id, id);
  const mode = entry?.testMode ? "test" : "live";
  // Another merchant's request, or one of a mode the role does not read, is not found.
  if (!entry || !canInMode(viewer.user.role, "logs.read", mode)) notFound();
  const zone = timeZoneInForce(viewer);
  return (
    <div className="max-w-6xl">
      <PageHeader
        title={`${entry.method} ${entry.path}`}
        description={`Answered ${entry.status} in ${entry.durationMs} ms, ${mode} mode.`}
        actions={
          <Link href={`/logs?mode=${mode}`} className="btn-secondary">
            All requests
          </Link>
        }
      />
      <dl className="card mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="log-facts">
        <Fact term="When">
          <time dateTime={entry.createdAt.toISOString()}>{formatDateTime(entry.createdAt, zone)}</time>
        </Fact>
        <Fact term="Status">{entry.status}</Fact>
        <Fact term="API key">
          <span className="font-mono text-xs">
            {entry.keyPrefix}…{entry.keyLastFour}
          </span>
        </Fact>
        <Fact term="Request id">
          <span className="font-mono text-xs">{entry.requestId}</span>
        </Fact>
        <Fact term="Idempotency key">{entry.idempotencyKey ? <span className="font-mono text-xs">{entry.idempotencyKey}</span> : "None"}</Fact>
        <Fact term="Invoice">
          {entry.invoiceId ? (
            <Link href={`/invoices/${entry.invoiceId}`} className="font-mono text-xs text-brand-700 underline">
              {entry.invoiceId}
            </Link>
          ) : (
            "None"
          )}
        </Fact>
        <Fact term="Refund">{entry.refundId ? <span className="font-mono text-xs">{entry.refundId}</span> : "None"}</Fact>
      </dl>
      <div className="grid gap-6 md:grid-cols-2">
        <Body id="log-request-body" title="Request body" text={entry.requestBody} truncated={entry.requestTruncated} />
        <Body id="log-response-body" title="Response body" text={entry.responseBody} truncated={entry.responseTruncated} />
      </div>
    </div>
  );
}

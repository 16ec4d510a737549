"use client";

import { Link } from "@/components/link";
import { useEffect, useRef } from "react";
import type { ComposerSendResult } from "@/lib/actions/invoice-composer";
import type { ComposerConnection } from "@/lib/composer/connections";
import { routedTo, routedToText } from "@/lib/composer/routed-to";

function meaning(status: number): string {
  if (status === 201) return "Created";
  if (status === 200) return "The same invoice again: this reference_id was already used with this body";
  if (status === 409) return "Conflict";
  if (status === 422) return "Refused: see the marked fields";
  if (status === 403) return "Forbidden";
  if (status === 401) return "Not authenticated";
  if (status === 429) return "Too many requests";
  return status >= 500 ? "The service could not answer" : "Refused";
}

/** The API's answer: status, body, and the new invoice's page. Focus moves here so it is announced. */
export function SendResult({
  result,
  connections,
  referenceRenewed = false,
}: {
  result: ComposerSendResult;
  connections: readonly ComposerConnection[];
  /** The form now holds a fresh reference_id, so sending again makes a new invoice. */
  referenceRenewed?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [result]);
  const ok = result.status === 200 || result.status === 201;
  const routed = ok ? routedTo(result.body, connections) : undefined;
  return (
    <section className="card min-w-0" aria-labelledby="composer-result-heading" data-testid="composer-result">
      <h2 id="composer-result-heading" ref={heading} tabIndex={-1} className="text-base font-semibold">
        Response
      </h2>
      <p className="mt-2 flex flex-wrap items-center gap-2 text-sm">
        <span className={`badge gap-1 ${ok ? "bg-green-100 text-green-800" : "bg-red-100 text-red-800"}`}>
          HTTP <span data-testid="composer-status">{result.status}</span>
        </span>
        <span>{meaning(result.status)}</span>
        {result.requestId ? (
          <span className="text-xs text-slate-600">
            Request ID <code>{result.requestId}</code>
          </span>
        ) : null}
      </p>
      {result.invoiceId ? (
        <p className="mt-3">
          <Link href={`/invoices/${result.invoiceId}`} className="btn-primary">
            Open invoice
          </Link>{" "}
          <code className="ml-2 text-sm">{result.invoiceId}</code>
        </p>
      ) : null}
      {referenceRenewed ? (
        <p className="mt-3 text-sm text-slate-700" data-testid="composer-reference-renewed">
          A new reference_id is filled in, so sending again creates another invoice.
        </p>
      ) : null}
      {routed ? (
        <p className="mt-3 text-sm" data-testid="composer-routed">
          {routedToText(routed)}
        </p>
      ) : null}
      <pre
        tabIndex={0}
        role="region"
        aria-label="Response body"
        data-testid="composer-response"
        className="mt-3 max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100"
      >
        {typeof result.body === "string" ? result.body : JSON.stringify(result.body, null, 2)}
      </pre>
    </section>
  );
}

"use client";

import { useState } from "react";
import { PreviewTable } from "@/components/connections/customer-preview";
import { resolveCustomer } from "@/lib/customers/resolve-customer";
import type { ComposerConnection } from "@/lib/composer/connections";
import { invoiceCollectionPath } from "@/lib/api/invoice-resource";
import { getKind, type InvoiceDirection } from "@/lib/providers";

/** Beside the form, live: the exact body, the same request as curl, and the customer the provider receives. */
export function RequestPreview({
  direction,
  body,
  data,
  curl,
  connection,
}: {
  direction: InvoiceDirection;
  body: string;
  data: unknown;
  curl: string;
  connection: ComposerConnection | undefined;
}) {
  return (
    <div className="space-y-6">
      <section className="card min-w-0" aria-labelledby="composer-body-heading">
        <h2 id="composer-body-heading" className="text-base font-semibold">
          Request body
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          <code>POST {invoiceCollectionPath(direction)}</code>, exactly as it will be sent.
        </p>
        <CodeBlock labelledBy="composer-body-heading" testId="composer-envelope" text={body} />
      </section>
      <section className="card min-w-0" aria-labelledby="composer-curl-heading">
        <div className="flex items-center justify-between gap-3">
          <h2 id="composer-curl-heading" className="text-base font-semibold">
            curl
          </h2>
          <CopyButton text={curl} />
        </div>
        <p className="mt-1 text-sm text-slate-600">
          Set <code>API_KEY</code> to one of your API keys first.
        </p>
        <CodeBlock labelledBy="composer-curl-heading" testId="composer-curl" text={curl} />
      </section>
      <section className="card min-w-0" aria-labelledby="composer-customer-heading">
        <h2 id="composer-customer-heading" className="text-base font-semibold">
          Customer the provider receives
        </h2>
        <ResolvedCustomer data={data} connection={connection} />
      </section>
    </div>
  );
}

function CodeBlock({ labelledBy, testId, text }: { labelledBy: string; testId: string; text: string }) {
  return (
    <pre
      tabIndex={0}
      role="region"
      aria-labelledby={labelledBy}
      data-testid={testId}
      className="mt-3 max-h-[28rem] overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100"
    >
      {text}
    </pre>
  );
}

function CopyButton({ text }: { text: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <div className="flex items-center gap-2">
      <span role="status" className="text-xs text-slate-600">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed; select the text instead" : ""}
      </span>
      <button type="button" className="btn-secondary" onClick={copy} onBlur={() => setState("idle")}>
        Copy curl
      </button>
    </div>
  );
}

/** The same resolver the invoice service runs (spec 2.3, 2.5, 2.6), with the chosen connection's constants. */
function ResolvedCustomer({ data, connection }: { data: unknown; connection: ComposerConnection | undefined }) {
  const kind = connection && getKind(connection.provider, connection.kind);
  if (!connection || !kind) {
    return <p className="mt-2 text-sm text-slate-600">Choose a service, or a connection to pin, to see what the provider receives.</p>;
  }
  const result = resolveCustomer({ data, constants: connection.constants, constantSpecs: kind.constants, defaults: kind.defaults });
  return (
    <div className="mt-2 space-y-3">
      <p className="text-sm text-slate-600">
        With the constants of {connection.label}
        {kind.defaults ? ` and ${connection.providerName}'s built-in defaults` : ""}. Source: request (sent), constant (the connection&apos;s), default (the
        provider&apos;s built-in value).
      </p>
      {result.ok ? (
        <PreviewTable fields={result.fields} />
      ) : (
        <ul className="text-sm text-red-700">
          {result.problems.map((problem) => (
            <li key={problem.path.join("/")}>{problem.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

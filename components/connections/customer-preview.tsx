"use client";

import { useEffect, useMemo, useState } from "react";
import type { constantValueSchema } from "@/lib/customers/constant-formats";
import { resolveCustomer, type FieldSource, type ResolvedField } from "@/lib/customers/resolve-customer";
import type { KindSpec, ProviderSpec } from "@/lib/providers";
import { addressMix, previewConstants, SAMPLE_INVOICES, sampleInvoiceData, type SampleInvoice } from "./customer-preview-model";

const SOURCE_STYLE: Readonly<Record<FieldSource, string>> = {
  request: "bg-sky-100 text-sky-900",
  constant: "bg-brand-100 text-brand-700",
  default: "bg-amber-100 text-amber-900",
};

/**
 * "What the provider receives": the sample request run through the same resolver the invoice
 * service uses (spec 2.3, 2.5, 2.6), with the editor's current, possibly unsaved, values.
 */
export function CustomerPreview({
  provider,
  kind,
  values,
  unsaved,
}: {
  provider: ProviderSpec;
  kind: KindSpec;
  values: Readonly<Record<string, unknown>> | undefined;
  unsaved: boolean;
}) {
  const [sample, setSample] = useState<SampleInvoice>("without_customer");
  const data = useMemo(() => sampleInvoiceData(sample, provider), [sample, provider]);
  const schemaOf = useConstantSchemas(unsaved);
  const { constants, invalid } = previewConstants(kind.constants, values, schemaOf);
  const result = resolveCustomer({ data, constants, constantSpecs: kind.constants, defaults: kind.defaults });
  const labels = new Map(kind.constants.map((spec) => [spec.name, spec.label]));

  return (
    <div className="space-y-4">
      <fieldset>
        <legend className="label">Sample request</legend>
        <div className="mt-2 grid gap-2 text-sm">
          {SAMPLE_INVOICES.map((option) => (
            <label key={option.id} className="flex items-center gap-2">
              <input type="radio" name="preview-sample" value={option.id} checked={sample === option.id} onChange={() => setSample(option.id)} />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      <details className="text-sm">
        <summary className="cursor-pointer text-slate-700">Show the sample request</summary>
        <pre className="mt-2 max-h-64 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100">{JSON.stringify({ data }, null, 2)}</pre>
      </details>
      {unsaved ? <p className="text-xs text-slate-600">{schemaOf ? "Includes your unsaved changes." : "Checking your unsaved changes…"}</p> : null}
      {invalid.length ? (
        <p className="text-xs text-amber-900" data-testid="preview-invalid">
          Left out until valid: {invalid.map((name) => labels.get(name) ?? name).join(", ")}.
        </p>
      ) : null}
      {result.ok ? <AddressMixWarning kind={kind} providerName={provider.name} fields={result.fields} /> : null}
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

/**
 * The server's constant checks (zod and lib/customers' formats), loaded once the editor holds
 * unsaved changes: until then the preview shows saved values, which were checked when saved.
 */
function useConstantSchemas(unsaved: boolean): typeof constantValueSchema | undefined {
  const [schemaOf, setSchemaOf] = useState<typeof constantValueSchema>();
  useEffect(() => {
    if (!unsaved || schemaOf) return;
    let live = true;
    import("@/lib/customers/constant-formats")
      .then((formats) => {
        if (live) setSchemaOf(() => formats.constantValueSchema);
      })
      .catch(() => {
        // Offline: the next change tries again; the save itself is checked on the server.
      });
    return () => {
      live = false;
    };
  }, [unsaved, schemaOf]);
  return schemaOf;
}

/** The resolved customer with each field's source; the invoice composer shows it too. */
export function PreviewTable({ fields }: { fields: readonly ResolvedField[] }) {
  if (fields.length === 0) {
    return (
      <p className="text-sm text-slate-600" data-testid="preview-empty">
        The provider receives no customer details for this invoice. Set constants to fill them in.
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="customer-preview">
        <caption className="sr-only">Customer fields the provider receives, with where each value comes from</caption>
        <thead className="text-xs text-slate-600">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Parameter
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Value
            </th>
            <th scope="col" className="py-1 font-medium">
              Source
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {fields.map((field) => (
            <tr key={field.path} data-testid={`preview-${field.path}`}>
              <th scope="row" className="py-1.5 pr-3 align-top font-mono text-xs font-normal text-slate-800">
                <PathText path={field.path} />
              </th>
              <td className="py-1.5 pr-3 align-top [overflow-wrap:anywhere]">{typeof field.value === "string" ? field.value : JSON.stringify(field.value)}</td>
              <td className="w-px py-1.5 align-top">
                <span className="flex flex-col items-start gap-0.5">
                  <span className={`badge whitespace-nowrap ${SOURCE_STYLE[field.source]}`}>{field.source}</span>
                  {field.constant ? <span className="font-mono text-xs text-slate-600">{field.constant}</span> : null}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Long dotted paths wrap after a dot, never inside a name. */
function PathText({ path }: { path: string }) {
  const parts = path.split(".");
  return parts.map((part, index) => (
    <span key={index}>
      {part}
      {index < parts.length - 1 ? (
        <>
          .<wbr />
        </>
      ) : null}
    </span>
  ));
}

/**
 * Provider B's built-in address is one real place in London; filling only some parts with the
 * merchant's own values would send an address that exists nowhere, so the preview says so.
 */
function AddressMixWarning({ kind, providerName, fields }: { kind: KindSpec; providerName: string; fields: readonly ResolvedField[] }) {
  const mix = addressMix(fields);
  if (!mix) return null;
  const name = (path: string) => (kind.constants.find((c) => c.target === path)?.label ?? path.split(".").at(-1)!).replace(/^Customer /, "");
  const list = (items: readonly ResolvedField[]) => items.map((f) => `${name(f.path)} "${String(f.value)}"`).join(", ");
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="address-mix-warning">
      <p className="font-medium">This address mixes your values with {providerName}&apos;s built-in defaults.</p>
      <p className="mt-1">
        Yours: {list(mix.own)}. {providerName}&apos;s defaults: {list(mix.defaults)}. Set the rest of the address too, or clear your part of it, so the provider
        receives one real address.
      </p>
    </div>
  );
}

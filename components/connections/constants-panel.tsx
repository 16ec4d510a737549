"use client";

import { useWatch } from "react-hook-form";
import { getKind, getProvider, type KindSpec, type ProviderSpec } from "@/lib/providers";
import { ConstantsEditor, useConstantsForm } from "./constants-editor";
import { CustomerPreview } from "./customer-preview";

/**
 * The connection page's Constants section. It owns the editor's form so the preview can follow
 * the values as they are typed, before they are saved.
 */
export function ConstantsPanel({
  connectionId,
  providerSlug,
  kindSlug,
  stored,
}: {
  connectionId: string;
  providerSlug: string;
  kindSlug: string;
  stored: Readonly<Record<string, string>>;
}) {
  const provider = getProvider(providerSlug)!;
  const kind = getKind(providerSlug, kindSlug)!;
  if (kind.constants.length === 0) {
    // Name the kind only where another kind of the same provider does take constants (Provider A).
    const subject = provider.kinds.some((k) => k.constants.length > 0) ? `${provider.name} ${kind.label}` : provider.name;
    return (
      <p className="text-sm text-slate-700" data-testid="no-constants">
        {subject} has no connection constants: invoices go to the provider exactly as sent.
      </p>
    );
  }
  return <ConstantsWorkspace connectionId={connectionId} provider={provider} kind={kind} stored={stored} />;
}

function ConstantsWorkspace({
  connectionId,
  provider,
  kind,
  stored,
}: {
  connectionId: string;
  provider: ProviderSpec;
  kind: KindSpec;
  stored: Readonly<Record<string, string>>;
}) {
  const form = useConstantsForm(kind, stored);
  const values = useWatch({ control: form.control, name: "constants" });
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <div>
        <p className="mb-4 text-sm text-slate-600">
          When an invoice request lacks one of these parameters, the connection&apos;s constant fills it.
          {kind.defaults ? ` Left blank, ${provider.name} uses its built-in default, shown in the empty field.` : null}
        </p>
        <ConstantsEditor connectionId={connectionId} kind={kind} form={form} />
      </div>
      <section aria-labelledby="preview-heading" className="lg:sticky lg:top-6 lg:self-start lg:border-l lg:border-slate-100 lg:pl-8">
        <h3 id="preview-heading" className="mb-1 text-sm font-semibold">
          What the provider receives
        </h3>
        <p className="mb-3 text-xs text-slate-600">Customer details for a sample invoice, field by field, and where each value comes from.</p>
        <CustomerPreview provider={provider} kind={kind} values={values} unsaved={form.formState.isDirty} />
      </section>
    </div>
  );
}

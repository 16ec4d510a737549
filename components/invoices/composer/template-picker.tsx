"use client";

import { Link } from "@/components/link";
import type { Role } from "@/lib/db/schema";
import { getProvider } from "@/lib/providers";
import { listTemplates, type InvoiceTemplate } from "@/lib/composer/templates";
import { canInMode } from "@/lib/identity/permissions";

export type TemplateNotice = { template: InvoiceTemplate; connectionLabel?: string };

/** One button per provider example (spec 4); choosing one fills the whole form, routed automatically. */
export function TemplatePicker({ onApply, notice, role }: { onApply: (template: InvoiceTemplate) => void; notice: TemplateNotice | undefined; role: Role }) {
  return (
    <section className="card" aria-labelledby="composer-templates-heading">
      <h2 id="composer-templates-heading" className="text-base font-semibold">
        Start from an example
      </h2>
      <p className="mt-1 text-sm text-slate-600">Fills the form with a provider&apos;s example invoice and a fresh reference.</p>
      <ul className="mt-3 grid gap-2 sm:grid-cols-2">
        {listTemplates().map((template) => (
          <li key={template.id}>
            <button type="button" className="btn-secondary w-full flex-col items-start text-left" onClick={() => onApply(template)}>
              <span>{template.label}</span>
              <span className="font-mono text-xs font-normal text-slate-600">
                {template.service} · {template.currency}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <div role="status" className="mt-3 text-sm" data-testid="template-status">
        {notice ? <NoticeText notice={notice} role={role} /> : null}
      </div>
    </section>
  );
}

function NoticeText({ notice, role }: { notice: TemplateNotice; role: Role }) {
  const { template, connectionLabel } = notice;
  if (connectionLabel) {
    return (
      <p className="rounded-md bg-brand-50 p-3 text-slate-800">
        Filled in from <strong>{template.label}</strong>, routed automatically: it goes to {connectionLabel} first. {template.description}
      </p>
    );
  }
  const name = getProvider(template.provider)?.name ?? template.provider;
  return (
    <p className="rounded-md bg-amber-50 p-3 text-amber-900">
      Connect {name} first: no enabled test-mode connection offers {template.service}.{" "}
      {canInMode(role, "invoices.compose", "live") ? (
        <Link href={`/providers/${template.provider}`} className="font-medium underline">
          Open {name}
        </Link>
      ) : (
        "Ask an owner to connect it."
      )}
    </p>
  );
}

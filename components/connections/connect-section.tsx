"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import type { ConnectionKind } from "@/lib/providers";

export type KindChoice = { kind: ConnectionKind; label: string; description: string };

const loadForm = () => import("./new-connection-form");

/** The form arrives on Connect (or as the pointer or focus reaches the button): its own chunk. */
const NewConnectionForm = dynamic(() => loadForm().then((m) => m.NewConnectionForm), {
  loading: () => (
    <p role="status" className="text-sm text-slate-600">
      Loading the form…
    </p>
  ),
});

/**
 * The overview page's 'New connection' section: Connect, choose the kind, fill its form (spec
 * section 1). The kinds come from the page (server); nothing of the provider registry, the
 * form library or the schemas is loaded until the form is opened.
 */
export function ConnectSection({ providerSlug, kinds }: { providerSlug: string; kinds: KindChoice[] }) {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<ConnectionKind | undefined>(kinds.length === 1 ? kinds[0]!.kind : undefined);
  const kindsRef = useRef<HTMLFieldSetElement>(null);
  // Connect is gone once pressed: the focus moves to the form's first field (the chosen kind, else
  // the first) after the change is committed, not to the page's start.
  useEffect(() => {
    if (!open) return;
    const radios = kindsRef.current?.querySelectorAll<HTMLInputElement>('input[type="radio"]');
    const first = radios ? (Array.from(radios).find((radio) => radio.checked) ?? radios[0]) : undefined;
    first?.focus();
  }, [open]);

  if (!open) {
    const warm = () => void loadForm();
    return (
      <button type="button" className="btn-primary" onClick={() => setOpen(true)} onPointerEnter={warm} onFocus={warm}>
        Connect
      </button>
    );
  }
  return (
    <div className="space-y-5">
      <fieldset ref={kindsRef}>
        <legend className="label">Connection kind</legend>
        <div className="mt-2 grid gap-3 md:grid-cols-2">
          {kinds.map((k) => (
            <label
              key={k.kind}
              className={`flex cursor-pointer gap-3 rounded-md border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${kind === k.kind ? "border-brand-500 bg-brand-50" : "border-slate-300 bg-white"}`}
            >
              <input type="radio" name="connection-kind" value={k.kind} checked={kind === k.kind} onChange={() => setKind(k.kind)} />
              <span>
                <span className="block font-medium">{k.label}</span>
                <span className="block text-slate-600">{k.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {kind ? <NewConnectionForm key={kind} providerSlug={providerSlug} kindSlug={kind} onCancel={() => setOpen(false)} /> : null}
    </div>
  );
}

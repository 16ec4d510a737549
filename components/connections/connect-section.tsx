"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import type { ConnectionKind } from "@/lib/providers";
import { ConnectCancelContext } from "./connect-cancel";

export type KindChoice = { kind: ConnectionKind; label: string; description: string };

/**
 * The overview page's 'New connection' section: Connect, choose the kind, fill its form (spec
 * section 1). The kinds and each kind's form come from the page (server), the forms rendered there
 * and kept hidden until chosen: they show at once, and nothing of the provider registry, the form
 * library or the schemas is loaded until a form is used (NewConnectionFormOnUse).
 */
export function ConnectSection({ kinds, forms }: { kinds: KindChoice[]; forms: Partial<Record<ConnectionKind, ReactNode>> }) {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<ConnectionKind | undefined>(kinds.length === 1 ? kinds[0]!.kind : undefined);
  // Cancel starts the forms afresh (what was typed goes, so nothing unsaved stays behind hidden).
  const [round, setRound] = useState(0);
  const kindsRef = useRef<HTMLFieldSetElement>(null);
  const cancel = () => {
    setOpen(false);
    setRound((n) => n + 1);
  };
  // Connect is gone once pressed: the focus moves to the form's first field (the chosen kind, else
  // the first) after the change is committed, not to the page's start.
  useEffect(() => {
    if (!open) return;
    const radios = kindsRef.current?.querySelectorAll<HTMLInputElement>('input[type="radio"]');
    const first = radios ? (Array.from(radios).find((radio) => radio.checked) ?? radios[0]) : undefined;
    first?.focus();
  }, [open]);

  return (
    <div>
      {open ? (
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
      ) : (
        <button type="button" className="btn-primary" onClick={() => setOpen(true)}>
          Connect
        </button>
      )}
      <ConnectCancelContext.Provider value={cancel}>
        {/* Once a kind is chosen the others' forms go (a kind chosen later renders its form afresh). */}
        {kinds.map((k) =>
          kind === undefined || kind === k.kind ? (
            <div key={`${k.kind}-${round}`} className="mt-5" hidden={!open || kind !== k.kind}>
              {forms[k.kind]}
            </div>
          ) : null,
        )}
      </ConnectCancelContext.Provider>
    </div>
  );
}

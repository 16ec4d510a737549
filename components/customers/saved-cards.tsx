"use client";

import { Link } from "@/components/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { notify } from "@/components/feedback";
import { removeSavedCardAction } from "@/lib/actions/payment-methods";

/** A saved card as the customer page lists it: plain JSON, never the token. */
export type SavedCardRow = {
  id: string;
  brand: string | null;
  lastFour: string;
  expiry: string;
  providerName: string;
  connectionId: string;
  connectionLabel: string | null;
  /** Why it can no longer be charged, or null when it can. */
  unusable: string | null;
  createdAt: string;
};

function RemoveCard({ card, onRemoved }: { card: SavedCardRow; onRemoved: (text: string) => void }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  const router = useRouter();
  useEffect(() => {
    if (asking) {
      asked.current = true;
      confirmRef.current?.focus();
    } else if (asked.current) {
      openRef.current?.focus();
    }
  }, [asking]);
  const name = `${card.brand ?? "Card"} •••• ${card.lastFour}`;
  if (!asking) {
    return (
      <button ref={openRef} type="button" className="btn-secondary text-red-700" onClick={() => setAsking(true)} aria-label={`Remove ${name}`}>
        Remove
      </button>
    );
  }
  return (
    <div
      role="alertdialog"
      aria-labelledby={`remove-${card.id}-title`}
      aria-describedby={`remove-${card.id}-body`}
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm"
      onKeyDown={(event) => {
        if (event.key === "Escape" && !pending) {
          event.preventDefault();
          setAsking(false);
        }
      }}
    >
      <p id={`remove-${card.id}-title`} className="font-semibold text-red-900">
        Remove {name}?
      </p>
      <p id={`remove-${card.id}-body`} className="mt-1 text-red-900">
        It can no longer be charged, and {card.providerName} is told to forget it where it can be. This cannot be undone.
      </p>
      {error ? (
        <p role="alert" className="mt-2 text-red-800">
          {error}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          ref={confirmRef}
          type="button"
          className="btn-danger"
          disabled={pending}
          aria-busy={pending}
          onClick={() =>
            startTransition(async () => {
              const result = await removeSavedCardAction({ id: card.id });
              if (!result.ok) return setError(result.message ?? "The card was not removed.");
              asked.current = false;
              router.refresh();
              onRemoved(`${name} removed: it can no longer be charged.`);
              notify({ message: `${name} removed.` });
            })
          }
        >
          {pending ? "Removing…" : "Remove card"}
        </button>
        <button type="button" className="btn-secondary" disabled={pending} onClick={() => setAsking(false)}>
          Keep it
        </button>
      </div>
    </div>
  );
}

/** The customer's saved cards; Remove (with a confirmation) where this viewer may remove cards of this mode. */
export function SavedCards({ cards, canRemove, linkConnections }: { cards: SavedCardRow[]; canRemove: boolean; linkConnections: boolean }) {
  const [status, setStatus] = useState("");
  const statusRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (status) statusRef.current?.focus();
  }, [status]);
  if (cards.length === 0) return <p className="text-sm text-slate-600">No saved cards.</p>;
  return (
    <div className="space-y-3">
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" data-testid="saved-cards">
        {cards.map((card) => (
          <li key={card.id} className="flex flex-wrap items-center gap-x-6 gap-y-2 p-3 text-sm" data-testid="saved-card" data-card-id={card.id}>
            <span className="min-w-40 font-medium">
              {card.brand ?? "Card"} <span className="font-mono">•••• {card.lastFour}</span>
            </span>
            <span>
              <span className="text-slate-600">Expires</span> <span className="tabular-nums">{card.expiry}</span>
            </span>
            <span>
              {card.providerName} ·{" "}
              {linkConnections && card.connectionLabel ? (
                <Link href={`/connections/${card.connectionId}`} className="text-brand-700 underline">
                  {card.connectionLabel}
                </Link>
              ) : (
                (card.connectionLabel ?? "deleted connection")
              )}
            </span>
            {card.unusable ? (
              <span className="badge bg-slate-200 text-slate-700" data-testid="card-unusable">
                Unusable: {card.unusable}
              </span>
            ) : (
              <span className="badge bg-green-100 text-green-800">Usable</span>
            )}
            {canRemove && !card.unusable?.startsWith("removed") ? (
              <span className="ml-auto">
                <RemoveCard card={card} onRemoved={setStatus} />
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      <p ref={statusRef} tabIndex={-1} role="status" aria-live="polite" className="text-sm text-slate-700 outline-none" data-testid="card-result">
        {status}
      </p>
    </div>
  );
}

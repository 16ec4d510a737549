"use client";

import { formatCardNumber, TEST_CARDS, type TestCard } from "@/lib/sandbox/cards";

/** Test-mode invoices only: the sandbox's cards, each a button that fills the form. */
export function TestCards({ onPick, disabled }: { onPick: (card: TestCard) => void; disabled: boolean }) {
  return (
    <section aria-labelledby="test-cards-heading" className="rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id="test-cards-heading" className="text-sm font-semibold text-amber-900">
        Test cards
      </h2>
      <p className="mt-1 text-xs text-amber-900">Choose one to fill in the form. Any future expiry date works; the CVC 000 is refused as wrong.</p>
      <ul className="mt-3 space-y-2">
        {TEST_CARDS.map((card) => (
          <li key={card.number}>
            <button
              type="button"
              disabled={disabled}
              onClick={() => onPick(card)}
              className="w-full rounded-md border border-amber-200 bg-white px-3 py-2 text-left text-sm hover:bg-amber-100 disabled:opacity-60"
            >
              <span className="block font-mono text-slate-900">{formatCardNumber(card.number)}</span>
              <span className="block text-xs text-slate-700">
                <span className="font-medium">{card.label}</span> · {card.outcome}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

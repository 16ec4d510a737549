"use client";

import { useState, type ReactNode } from "react";

/**
 * Below md the invoice filters fold behind a "Filters" button (aria-expanded, aria-controls) that
 * says how many filters are active; from md up the button is hidden and the filters always show.
 * Without JavaScript the filters show on phones too (the noscript rule in InvoiceFilters).
 */
export function FiltersDisclosure({ activeCount, panelId, children }: { activeCount: number; panelId: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="mb-6">
      <button
        type="button"
        className="btn-secondary md:hidden"
        aria-expanded={open}
        aria-controls={panelId}
        data-testid="filters-toggle"
        onClick={() => setOpen((was) => !was)}
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round">
          <path d="M2 4h12M4.5 8h7M7 12h2" />
        </svg>
        Filters
        {activeCount > 0 ? (
          <span className="badge bg-brand-100 text-brand-700" data-testid="filters-active-count">
            {activeCount}
            <span className="sr-only"> active</span>
          </span>
        ) : null}
        <svg
          aria-hidden="true"
          viewBox="0 0 16 16"
          className={`size-4 transition-transform ${open ? "rotate-180" : ""}`}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M4 6l4 4 4-4" />
        </svg>
      </button>
      <div id={panelId} className={open ? "mt-3 md:mt-0" : "hidden md:block"} data-testid="filters-panel">
        {children}
      </div>
    </div>
  );
}

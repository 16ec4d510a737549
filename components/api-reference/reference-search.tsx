"use client";

import { useState, type FormEvent } from "react";

function matches(text: string, query: string): boolean {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

/**
 * Filters the operations as the merchant types: each operation's section carries its search text
 * (data-operation) and is hidden when it does not match, as are groups left empty and their entries
 * in the contents. Without JavaScript the same form submits ?q= and the server hides the same ones.
 */
export function ReferenceSearch({ initial, total }: { initial: string; total: number }) {
  const [query, setQuery] = useState(initial);
  const [shown, setShown] = useState<number | null>(null);

  function apply(value: string) {
    setQuery(value);
    let count = 0;
    for (const section of document.querySelectorAll<HTMLElement>("[data-operation]")) {
      const match = matches(section.dataset.operation ?? "", value);
      section.hidden = !match;
      if (match) count++;
      const entry = document.querySelector<HTMLElement>(`[data-toc="${section.id}"]`);
      if (entry) entry.hidden = !match;
    }
    for (const group of document.querySelectorAll<HTMLElement>("[data-tag-group]")) {
      group.hidden = group.querySelector("[data-operation]:not([hidden])") === null;
    }
    setShown(count);
    const url = new URL(window.location.href);
    if (value.trim()) url.searchParams.set("q", value.trim());
    else url.searchParams.delete("q");
    window.history.replaceState(window.history.state, "", url);
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    apply(query);
  };

  return (
    <form method="get" action="/docs/api" role="search" onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <div className="min-w-0 flex-1">
        <label htmlFor="api-search" className="label">
          Search operations
        </label>
        <input
          id="api-search"
          name="q"
          type="search"
          className="input mt-1"
          value={query}
          onChange={(event) => apply(event.target.value)}
          placeholder="refund, POST, /api/routing, createConnection…"
          aria-describedby="api-search-count"
        />
      </div>
      <button type="submit" className="btn-secondary">
        Search
      </button>
      <p id="api-search-count" aria-live="polite" className="w-full text-xs text-slate-600">
        {shown === null ? null : `${shown} of ${total} operations shown`}
      </p>
    </form>
  );
}

"use client";

import Form from "next/form";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useRef } from "react";

/** Typing here must not move the focus: the shortcut is for when no field has it. */
function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * The dashboard's search (every page): one field that finds invoices by id, reference_id, the
 * provider's reference, the customer's e-mail or name, or a card's last four digits
 * (lib/invoices/read/search.ts). A GET form to the invoice list, so it works without JavaScript and
 * the results are a page like any list (one invoice found by an exact key opens it). `/`, Ctrl-K
 * and ⌘-K focus it from anywhere but another field.
 */
export function SearchBox() {
  const input = useRef<HTMLInputElement>(null);
  // On the results page the field shows what was searched; keyed by it, so a new search resets it.
  const params = useSearchParams();
  const searched = usePathname() === "/invoices" ? (params.get("q") ?? "") : "";
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || isEditable(event.target)) return;
      const slash = event.key === "/" && !event.ctrlKey && !event.metaKey;
      const commandK = event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.shiftKey;
      if (!slash && !commandK) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <Form action="/invoices" role="search" aria-label="Invoices" className="flex w-full max-w-xl items-center gap-2">
      <label htmlFor="invoice-search" className="sr-only">
        Search invoices
      </label>
      <input
        ref={input}
        key={searched}
        defaultValue={searched}
        id="invoice-search"
        name="q"
        type="search"
        required
        maxLength={200}
        autoComplete="off"
        spellCheck={false}
        placeholder="Search invoices"
        aria-describedby="invoice-search-help"
        aria-keyshortcuts="/ Control+K Meta+K"
        className="input min-w-0 flex-1"
      />
      <p id="invoice-search-help" className="sr-only">
        Finds an invoice by its id, reference_id, the provider&apos;s reference, the customer&apos;s e-mail or the beginning of their name, or a card&apos;s
        last four digits, and customers by the beginning of their reference. Press slash or Control K to come here.
      </p>
      <button type="submit" className="btn-secondary shrink-0">
        Search
      </button>
      <kbd className="hidden rounded border border-slate-300 px-1.5 text-xs text-slate-500 md:inline" aria-hidden="true">
        /
      </kbd>
    </Form>
  );
}

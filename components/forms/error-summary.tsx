"use client";

import type { FieldErrors, FieldValues } from "react-hook-form";

export type SummaryItem = { name: string; controlId: string; label: string; message: string };

/** Every error of a react-hook-form errors tree, by dotted name ("credentials.api_url"). */
export function flattenErrors(errors: FieldErrors<FieldValues>, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, node] of Object.entries(errors)) {
    if (!node || typeof node !== "object") continue;
    const name = prefix ? `${prefix}.${key}` : key;
    const message = (node as { message?: unknown }).message;
    if (typeof message === "string" && message) out.set(name, message);
    else for (const [inner, text] of flattenErrors(node as FieldErrors<FieldValues>, name)) out.set(inner, text);
  }
  return out;
}

/**
 * The problems of a submitted form in one list at its top, each a link that moves focus to its
 * field (the GOV.UK error summary pattern), so nothing is found only by scrolling. `items` come in
 * the form's own order; the list is empty (and renders nothing) once every problem is fixed.
 */
export function ErrorSummary({ id, items, title }: { id: string; items: readonly SummaryItem[]; title?: string }) {
  if (items.length === 0) return null;
  const heading = title ?? (items.length === 1 ? "There is a problem" : `There are ${items.length} problems`);
  return (
    <div
      id={id}
      tabIndex={-1}
      role="region"
      aria-labelledby={`${id}-title`}
      data-testid="error-summary"
      className="rounded-md border-2 border-red-700 bg-red-50 p-4 text-sm text-red-900 focus:outline-2 focus:outline-offset-2 focus:outline-brand-600"
    >
      <h3 id={`${id}-title`} className="font-semibold">
        {heading}
      </h3>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {items.map((item) => (
          <li key={item.name}>
            <a
              href={`#${item.controlId}`}
              className="text-red-800 underline underline-offset-2 hover:text-red-950"
              onClick={(event) => {
                const target = document.getElementById(item.controlId);
                if (!target) return;
                event.preventDefault();
                target.scrollIntoView({ block: "center" });
                target.focus();
              }}
            >
              {item.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Moves focus to a form's summary once React has rendered it (after a refused submit). The first
 * check of a form loads its schema, so the render may come a few frames later: it waits up to
 * `frames` frames for the summary to appear.
 */
export function focusErrorSummary(id: string, frames = 30): void {
  requestAnimationFrame(() => {
    const summary = document.getElementById(id);
    if (summary) summary.focus();
    else if (frames > 0) focusErrorSummary(id, frames - 1);
  });
}

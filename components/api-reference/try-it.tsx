"use client";

import { lazy, Suspense, useState, useSyncExternalStore } from "react";
import type { TryItProps } from "./try-it-props";

export type { TryItProps } from "./try-it-props";

const loadForm = () => import("./try-it-form");
const TryItForm = lazy(loadForm);
const subscribe = () => () => {};

/**
 * The Try it island: a button until it is first used; the form (and its code) loads then. Before
 * the page's script runs (or without JavaScript) it says so instead of showing a dead button.
 */
export function TryIt(props: TryItProps) {
  const [open, setOpen] = useState(false);
  const hydrated = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  if (!hydrated) return <p className="text-xs text-slate-600">Try it sends this request from the page once JavaScript has loaded.</p>;
  if (!open) {
    return (
      <button
        type="button"
        className="btn-secondary"
        aria-label={`Try it: ${props.method} ${props.path}`}
        aria-expanded={false}
        onClick={() => setOpen(true)}
        onPointerEnter={() => void loadForm()}
        onFocus={() => void loadForm()}
      >
        Try it
      </button>
    );
  }
  return (
    <Suspense
      fallback={
        <p role="status" className="text-sm text-slate-600">
          Loading the Try it form…
        </p>
      }
    >
      <TryItForm {...props} onClose={() => setOpen(false)} />
    </Suspense>
  );
}

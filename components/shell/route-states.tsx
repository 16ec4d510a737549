"use client";

import { Link } from "@/components/link";
import { useEffect } from "react";

export function RouteError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div role="alert" className="card max-w-xl">
      <h2 className="text-lg font-semibold">This page could not be shown</h2>
      <p className="mt-1 text-sm text-slate-600">
        Nothing you saved was lost. Try again; if it keeps failing, quote reference <code>{error.digest ?? "n/a"}</code> to support.
      </p>
      <button type="button" className="btn-primary mt-4" onClick={reset}>
        Try again
      </button>
    </div>
  );
}

export function RouteNotFound({ what = "page" }: { what?: string }) {
  return (
    <div className="card max-w-xl">
      <h2 className="text-lg font-semibold">Not found</h2>
      <p className="mt-1 text-sm text-slate-600">This {what} does not exist, or it belongs to another merchant.</p>
      <Link href="/" className="btn-secondary mt-4">
        Back to the dashboard
      </Link>
    </div>
  );
}

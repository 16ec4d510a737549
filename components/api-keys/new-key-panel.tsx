"use client";

import { useState } from "react";

/** The full key, shown this once with a copy button; only its hash is kept. */
export function NewKeyPanel({ secret, heading, onDone }: { secret: string; heading: string; onDone: () => void }) {
  const [copied, setCopied] = useState<"" | "copied" | "failed">("");
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm">
      <p className="font-medium">{heading}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code data-testid="new-api-key" className="min-w-0 rounded bg-white px-2 py-1 font-mono text-xs break-all">
          {secret}
        </code>
        <button
          type="button"
          className="btn-secondary"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(secret);
              setCopied("copied");
            } catch {
              setCopied("failed");
            }
          }}
        >
          {copied === "copied" ? "Copied" : "Copy key"}
        </button>
        <button type="button" className="btn-secondary" onClick={onDone}>
          Done
        </button>
      </div>
      {copied === "failed" ? <p className="mt-2 text-red-800">Could not copy; select the key and copy it instead.</p> : null}
    </div>
  );
}

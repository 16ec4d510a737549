"use client";

import { useState } from "react";

/** A new signing secret, shown this once (the page never shows it again; a reload hides it). */
export function WebhookSecretReveal({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm">
      <p className="font-medium">Copy your signing secret now. It is shown only this once.</p>
      <p className="mt-1 text-slate-700">Your receiver verifies each delivery&apos;s X-Signature with it (see the webhooks docs).</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code data-testid="new-webhook-secret" className="rounded bg-white px-2 py-1 font-mono text-xs break-all">
          {secret}
        </code>
        <button
          type="button"
          className="btn-secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(secret);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className="btn-secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

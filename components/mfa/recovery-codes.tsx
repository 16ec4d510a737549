"use client";

import { useEffect, useRef, useState } from "react";

/** Ten recovery codes, shown once: the heading takes focus so a screen reader starts here. */
export function RecoveryCodes({ codes, onDone, doneLabel }: { codes: string[]; onDone: () => void; doneLabel: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState("");
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="recovery-codes-heading" className="space-y-3">
      <h3 id="recovery-codes-heading" ref={heading} tabIndex={-1} className="text-sm font-semibold">
        Your recovery codes
      </h3>
      <p className="text-sm text-slate-700">
        Each code signs you in once if you lose your phone. Save them somewhere safe now (a password manager): they are not shown again.
      </p>
      <ol className="grid grid-cols-2 gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-sm sm:max-w-sm" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className="btn-secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(codes.join("\n")).then(
              () => setCopied("Copied to the clipboard."),
              () => setCopied("Copying failed: select the codes and copy them."),
            );
          }}
        >
          Copy codes
        </button>
        <button type="button" className="btn-primary" onClick={onDone}>
          {doneLabel}
        </button>
        <p role="status" aria-live="polite" className="text-sm text-slate-700">
          {copied}
        </p>
      </div>
    </section>
  );
}

"use client";

import dynamic from "next/dynamic";
import { Link } from "@/components/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { formatInZone, formatTimeLeft } from "@/lib/format";
import { formatMoney } from "@/lib/money";
import type { AuthorizationPanel } from "@/lib/processing/authorization-panel";

// The forms (react-hook-form, the actions) load when Capture or Void is pressed: most visits only read the page.
const loading = () => (
  <p role="status" className="text-sm text-slate-600">
    Opening the form…
  </p>
);
const CaptureForm = dynamic(() => import("./authorization-forms").then((m) => m.CaptureForm), { loading });
const VoidForm = dynamic(() => import("./authorization-forms").then((m) => m.VoidForm), { loading });

const SETTLED_WORDS: Partial<Record<AuthorizationPanel["status"], string>> = {
  capturing: "A capture was sent; the provider's answer is awaited.",
  voiding: "A void was sent; the provider's answer is awaited.",
  voided: "Voided: the authorization was released and nothing was taken.",
};

/** "Capture by 8 Dec 2026, 10:00 UTC — in 6 days 23 hours", the time left kept current each minute. */
function CaptureBy({ until, timeZone }: { until: string; timeZone: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const left = formatTimeLeft(until, now);
  return (
    <p className="text-sm text-slate-700" data-testid="capture-by">
      Capture by <time dateTime={until}>{formatInZone(until, timeZone, "minute")}</time> —{" "}
      <span suppressHydrationWarning>{left === "passed" ? "the hold has lapsed; it will be voided shortly" : left}</span>
    </p>
  );
}

/**
 * An authorized payment: what is held and until when, and Capture and Void where this viewer may
 * (the actions check again). After either, the page is read again and shows the new status here,
 * in Status and details and in the timeline.
 */
export function InvoiceAuthorization({ invoiceId, panel, timeZone }: { invoiceId: string; panel: AuthorizationPanel; timeZone: string }) {
  const router = useRouter();
  // A capture or void the provider has not answered yet settles on its own (status requests): the section reads it again until it has.
  const waiting = panel.status === "capturing" || panel.status === "voiding";
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => router.refresh(), 3000);
    return () => clearInterval(timer);
  }, [waiting, router]);
  const [open, setOpen] = useState<"capture" | "void" | null>(null);
  const [result, setResult] = useState("");
  const [refusal, setRefusal] = useState("");
  const [done, setDone] = useState(0);
  const resultRef = useRef<HTMLParagraphElement>(null);
  const refusalRef = useRef<HTMLDivElement>(null);
  const focusRefusal = useRef(false);
  // The form is gone: the focus goes to what happened (an effect, after the result is on the page).
  useEffect(() => {
    if (done > 0) (focusRefusal.current ? refusalRef : resultRef).current?.focus();
  }, [done]);
  const finish = (text: string) => {
    setResult(text);
    setRefusal("");
    setOpen(null);
    focusRefusal.current = false;
    setDone((n) => n + 1);
  };
  const refused = (text: string) => {
    setResult("");
    setRefusal(text);
    setOpen(null);
    focusRefusal.current = true;
    setDone((n) => n + 1);
  };
  const start = (which: "capture" | "void") => {
    setResult("");
    setRefusal("");
    setOpen(which);
  };
  const authorized = panel.authorizedAmount ? formatMoney(panel.authorizedAmount, panel.currency) : "—";
  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-[10rem_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-600">Authorized</dt>
        <dd className="font-medium tabular-nums" data-testid="authorized-amount">
          {authorized}
        </dd>
        {panel.capturedAmount !== null && panel.status !== "voided" ? (
          <>
            <dt className="text-slate-600">Captured</dt>
            <dd className="tabular-nums" data-testid="captured-amount">
              {formatMoney(panel.capturedAmount, panel.currency)}
            </dd>
          </>
        ) : null}
        <dt className="text-slate-600">Provider</dt>
        <dd>
          {panel.providerName ?? "—"}
          {panel.status === "authorized" ? (panel.partialCapture ? " (captures all or part)" : " (captures the whole amount only)") : null}
        </dd>
        {panel.customerReference ? (
          <>
            <dt className="text-slate-600">Customer</dt>
            <dd>
              <Link className="font-mono text-xs text-brand-700 underline" href={`/customers/${encodeURIComponent(panel.customerReference)}`}>
                {panel.customerReference}
              </Link>
            </dd>
          </>
        ) : null}
      </dl>
      {panel.captureBefore ? <CaptureBy until={panel.captureBefore} timeZone={timeZone} /> : null}
      {SETTLED_WORDS[panel.status] ? (
        <p className="text-sm text-slate-700" data-testid="authorization-state">
          {SETTLED_WORDS[panel.status]}
        </p>
      ) : null}
      <p ref={resultRef} tabIndex={-1} role="status" aria-live="polite" className="text-sm text-slate-700 outline-none" data-testid="authorization-result">
        {result}
      </p>
      <div
        ref={refusalRef}
        tabIndex={-1}
        role="alert"
        data-testid="authorization-refusal"
        className={refusal ? "rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800 outline-none" : "sr-only"}
      >
        {refusal}
      </div>
      {panel.status !== "authorized" ? null : panel.blocked !== null ? (
        <p className="text-sm text-slate-600" data-testid="authorization-blocked">
          {panel.blocked}
        </p>
      ) : open === "capture" ? (
        <CaptureForm invoiceId={invoiceId} panel={panel} onDone={finish} onRefused={refused} onCancel={() => setOpen(null)} />
      ) : open === "void" ? (
        <VoidForm invoiceId={invoiceId} panel={panel} onDone={finish} onRefused={refused} onCancel={() => setOpen(null)} />
      ) : (
        <div className="flex flex-wrap gap-3">
          <button type="button" className="btn-primary" onClick={() => start("capture")}>
            Capture
          </button>
          <button type="button" className="btn-secondary" onClick={() => start("void")}>
            Void
          </button>
        </div>
      )}
    </div>
  );
}

"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { RefundPanel, RefundView } from "@/lib/refunds/read";
import { formatMoment } from "./invoice-client";
import { formatMoney } from "@/lib/money";

// The form (react-hook-form, the action) loads when Refund is pressed: most visits only read the page.
const RefundForm = dynamic(() => import("./refund-form").then((m) => m.RefundForm), {
  loading: () => (
    <p role="status" className="text-sm text-slate-600">
      Opening the refund form…
    </p>
  ),
});

const REFRESH_MS = 3000;

const STATUS_LABELS: Readonly<Record<string, string>> = {
  created: "Being sent",
  pending: "Pending at the provider",
  succeeded: "Refunded",
  failed: "Failed",
};

const STATUS_STYLE: Readonly<Record<string, string>> = {
  created: "bg-slate-100 text-sky-900 ring-1 ring-inset ring-sky-200",
  pending: "bg-slate-100 text-sky-900 ring-1 ring-inset ring-sky-200",
  succeeded: "bg-green-100 text-green-800",
  failed: "bg-red-100 text-red-800",
};

function RefundList({ refunds, zone }: { refunds: RefundView[]; zone: string }) {
  if (refunds.length === 0) return <p className="text-sm text-slate-600">No refunds yet.</p>;
  return (
    <ol className="divide-y divide-slate-200 rounded-md border border-slate-200" data-testid="refund-list">
      {refunds.map((refund) => (
        <li key={refund.id} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 p-3 text-sm" data-testid="refund-item">
          <span className="font-medium tabular-nums">{formatMoney(refund.amount, refund.currency)}</span>
          <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[refund.status] ?? ""}`} data-testid="refund-status">
            {STATUS_LABELS[refund.status] ?? refund.status}
          </span>
          <span className="text-slate-600">{formatMoment(refund.createdAt, zone)}</span>
          <span className="font-mono text-xs text-slate-600">{refund.id}</span>
          {refund.reason ? <span className="w-full text-slate-700">Reason: {refund.reason}</span> : null}
          {refund.message ? <span className="w-full text-slate-700">Provider: {refund.message}</span> : null}
        </li>
      ))}
    </ol>
  );
}

/** The payment's refunds, and the Refund form where this viewer may refund it now. */
export function InvoiceRefunds({ invoiceId, currency, panel, timeZone }: { invoiceId: string; currency: string; panel: RefundPanel; timeZone: string }) {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState("");
  const [formKey, setFormKey] = useState(0);
  // Counts the refunds made here: each moves the focus to its result once that is committed.
  const [made, setMade] = useState(0);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const router = useRouter();
  // A refund still open settles at the provider: the section reads it again until it has.
  const waiting = panel.refunds.some((refund) => refund.status === "created" || refund.status === "pending");
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => router.refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [waiting, router]);
  // The form is gone: the focus goes to what happened, not to the page's start. An effect, so it
  // runs after the result is on the page (a frame later, the form's disabled Confirm had already
  // dropped the focus to the page's body and a refresh could land in between).
  useEffect(() => {
    if (made > 0) statusRef.current?.focus();
  }, [made]);
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        Refunded so far:{" "}
        <span className="font-medium tabular-nums" data-testid="refunded-amount">
          {formatMoney(panel.refundedAmount, currency)}
        </span>
        {panel.blocked === null ? (
          <>
            {" "}
            · still refundable: <span className="tabular-nums">{formatMoney(panel.rest, currency)}</span>
          </>
        ) : null}
      </p>
      <RefundList refunds={panel.refunds} zone={timeZone} />
      <p ref={statusRef} tabIndex={-1} role="status" aria-live="polite" className="text-sm text-slate-700 outline-none" data-testid="refund-result">
        {status}
      </p>
      {panel.blocked !== null ? (
        <p className="text-sm text-slate-600" data-testid="refund-blocked">
          {panel.blocked}
        </p>
      ) : open ? (
        <RefundForm
          key={formKey}
          invoiceId={invoiceId}
          panel={panel}
          currency={currency}
          onDone={(text) => {
            setStatus(text);
            setOpen(false);
            setFormKey((k) => k + 1);
            setMade((n) => n + 1);
          }}
        />
      ) : (
        <button
          type="button"
          className="btn-primary"
          onClick={() => {
            setStatus("");
            setOpen(true);
          }}
        >
          Refund
        </button>
      )}
    </div>
  );
}

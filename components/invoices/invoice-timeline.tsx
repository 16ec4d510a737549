"use client";

import type { DashboardHistoryEntry, DashboardInvoice } from "@/lib/invoices/read/invoice-view";
import type { RefundView } from "@/lib/refunds/read";
import type { DisputeStep } from "@/lib/disputes/timeline";
import { formatMoment } from "./invoice-client";
import { InvoiceStatusBadge } from "./status-badge";
import { useDashboardInvoice } from "./use-dashboard-invoice";
import { formatMoney } from "@/lib/money";

/** One refund's step: asked for, then succeeded or failed. */
type RefundStep = { refund: RefundView; step: "asked" | "succeeded" | "failed"; at: string };

/** A Pay a risk rule refused before any provider saw it (lib/risk): the rule in words, the card as shown. */
export type BlockedStep = { id: string; rule: string; ruleLabel: string; cardLabel: string | null; amount: string; currency: string; at: string };

type Entry =
  | { kind: "blocked"; step: BlockedStep; at: string }
  | { kind: "status"; entry: DashboardHistoryEntry; at: string }
  | { kind: "refund"; step: RefundStep; at: string }
  | { kind: "dispute"; step: DisputeStep; at: string };

const DISPUTE_WORDS: Readonly<Record<DisputeStep["step"], string>> = {
  opened: "disputed by the customer",
  evidence_submitted: "dispute: evidence submitted",
  conceded: "dispute accepted by you",
  under_review: "dispute under review",
  won: "dispute won",
  lost: "dispute lost",
  accepted: "dispute closed as accepted",
};

const REFUND_WORDS: Readonly<Record<RefundStep["step"], string>> = { asked: "asked for", succeeded: "refunded", failed: "failed" };

function refundSteps(refunds: readonly RefundView[]): RefundStep[] {
  return refunds.flatMap((refund): RefundStep[] => {
    const asked: RefundStep = { refund, step: "asked", at: refund.createdAt };
    if (!refund.settledAt || (refund.status !== "succeeded" && refund.status !== "failed")) return [asked];
    return [asked, { refund, step: refund.status, at: refund.settledAt }];
  });
}

/** Status changes, refund and dispute steps, oldest first (at the same moment, the refund step before the status change it caused). */
function entriesOf(
  history: readonly DashboardHistoryEntry[],
  refunds: readonly RefundView[],
  disputes: readonly DisputeStep[],
  blocked: readonly BlockedStep[],
): Entry[] {
  const entries: Entry[] = [
    ...blocked.map((step): Entry => ({ kind: "blocked", step, at: step.at })),
    ...history.map((entry): Entry => ({ kind: "status", entry, at: entry.at })),
    ...refundSteps(refunds).map((step): Entry => ({ kind: "refund", step, at: step.at })),
    ...disputes.map((step): Entry => ({ kind: "dispute", step, at: step.at })),
  ];
  return entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || (a.kind === b.kind ? 0 : a.kind === "refund" ? -1 : 1));
}

/**
 * Every status change and every refund's steps, oldest first; follows the same live query as the
 * status panel, and the refunds the page read (re-read while one is open).
 */
export function InvoiceTimeline({
  initial,
  refunds = [],
  disputes = [],
  blocked = [],
  timeZone,
}: {
  initial: DashboardInvoice;
  refunds?: readonly RefundView[];
  disputes?: readonly DisputeStep[];
  blocked?: readonly BlockedStep[];
  timeZone: string;
}) {
  const { data: invoice } = useDashboardInvoice(initial);
  const entries = entriesOf(invoice.history, refunds, disputes, blocked);
  if (entries.length === 0) return <p className="text-sm text-slate-600">Nothing recorded yet.</p>;
  return (
    <ol className="relative space-y-4 border-l border-slate-200 pl-5 text-sm" data-testid="invoice-timeline">
      {entries.map((item) =>
        item.kind === "status" ? (
          <StatusEntry key={item.entry.id} entry={item.entry} zone={timeZone} />
        ) : item.kind === "blocked" ? (
          <BlockedEntry key={item.step.id} step={item.step} zone={timeZone} />
        ) : item.kind === "refund" ? (
          <RefundEntry key={`${item.step.refund.id}:${item.step.step}`} step={item.step} zone={timeZone} />
        ) : (
          <DisputeEntry key={`${item.step.disputeId}:${item.step.step}:${item.at}`} step={item.step} zone={timeZone} />
        ),
      )}
    </ol>
  );
}

function StatusEntry({ entry, zone }: { entry: DashboardHistoryEntry; zone: string }) {
  return (
    <li className="relative">
      <span className="absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full bg-brand-500 ring-4 ring-white" aria-hidden="true" />
      <p className="flex flex-wrap items-center gap-2">
        {entry.from ? (
          <>
            <InvoiceStatusBadge status={entry.from} />
            <span aria-hidden="true">→</span>
            <span className="sr-only">to</span>
          </>
        ) : (
          <span className="text-slate-700">Created as</span>
        )}
        <InvoiceStatusBadge status={entry.to} />
        {entry.resolution ? <span className="font-mono text-xs text-slate-700">resolution {entry.resolution}</span> : null}
      </p>
      <p className="mt-1 text-xs text-slate-600">
        <time dateTime={entry.at}>{formatMoment(entry.at, zone)}</time>
        {entry.reason !== entry.to ? ` · ${entry.reason}` : null}
      </p>
    </li>
  );
}

function BlockedEntry({ step, zone }: { step: BlockedStep; zone: string }) {
  return (
    <li className="relative" data-testid="timeline-blocked-step">
      <span className="absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full bg-red-600 ring-4 ring-white" aria-hidden="true" />
      <p className="text-slate-800">
        Pay of <span className="font-medium tabular-nums">{formatMoney(step.amount, step.currency)}</span>
        {step.cardLabel ? ` with ${step.cardLabel}` : null} blocked by risk: {step.ruleLabel} <span className="font-mono text-xs">({step.rule})</span>
      </p>
      <p className="mt-1 text-xs text-slate-600">
        <time dateTime={step.at}>{formatMoment(step.at, zone)}</time> · no provider was called
      </p>
    </li>
  );
}

function RefundEntry({ step, zone }: { step: RefundStep; zone: string }) {
  const { refund } = step;
  const dot = step.step === "failed" ? "bg-red-600" : step.step === "succeeded" ? "bg-emerald-600" : "bg-slate-400";
  return (
    <li className="relative" data-testid="timeline-refund-step">
      <span className={`absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full ring-4 ring-white ${dot}`} aria-hidden="true" />
      <p className="text-slate-800">
        Refund of <span className="font-medium tabular-nums">{formatMoney(refund.amount, refund.currency)}</span> {REFUND_WORDS[step.step]}
        {step.step === "failed" && refund.message ? <span className="text-slate-700">: {refund.message}</span> : null}
      </p>
      <p className="mt-1 text-xs text-slate-600">
        <time dateTime={step.at}>{formatMoment(step.at, zone)}</time> · <span className="font-mono">{refund.id}</span>
      </p>
    </li>
  );
}

function DisputeEntry({ step, zone }: { step: DisputeStep; zone: string }) {
  const dot = step.step === "lost" || step.step === "accepted" ? "bg-red-600" : step.step === "won" ? "bg-emerald-600" : "bg-amber-500";
  return (
    <li className="relative" data-testid="timeline-dispute-step">
      <span className={`absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full ring-4 ring-white ${dot}`} aria-hidden="true" />
      <p className="text-slate-800">
        <span className="font-medium tabular-nums">{formatMoney(step.amount, step.currency)}</span> {DISPUTE_WORDS[step.step]}
      </p>
      <p className="mt-1 text-xs text-slate-600">
        <time dateTime={step.at}>{formatMoment(step.at, zone)}</time> · <span className="font-mono">{step.disputeId}</span>
      </p>
    </li>
  );
}

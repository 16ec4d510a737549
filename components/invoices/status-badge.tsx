import type { InvoiceStatus } from "@/lib/invoices/state-machine";

type Group = "progress" | "processed" | "partial" | "failed" | "ended";

const GROUP_OF: Readonly<Record<InvoiceStatus, Group>> = {
  created: "progress",
  processing: "progress",
  process_pending: "progress",
  refunding: "progress",
  canceling: "progress",
  processed: "processed",
  partially_processed: "partial",
  partially_refunded: "partial",
  partially_canceled: "partial",
  process_failed: "failed",
  process_error: "failed",
  expired: "ended",
  terminated: "ended",
  refunded: "ended",
  canceled: "ended",
  authorized: "partial",
  capturing: "progress",
  voiding: "progress",
  voided: "ended",
};

/** Colour only groups the statuses; the status itself is always written out (WCAG 1.4.1). */
const STYLE: Readonly<Record<Group, string>> = {
  progress: "bg-slate-100 text-sky-900 ring-1 ring-inset ring-sky-200",
  processed: "bg-green-100 text-green-800",
  partial: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-800",
  ended: "bg-slate-200 text-slate-700",
};

export function InvoiceStatusBadge({ status, testId }: { status: InvoiceStatus; testId?: string }) {
  return (
    <span className={`badge font-mono ${STYLE[GROUP_OF[status] ?? "progress"]}`} data-testid={testId}>
      {status}
    </span>
  );
}

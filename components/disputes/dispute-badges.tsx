import type { DisputeStatus } from "@/lib/disputes/contract";
import { DISPUTE_STATUS_LABELS } from "@/lib/disputes/contract";

const TONES: Record<DisputeStatus, string> = {
  needs_response: "bg-amber-100 text-amber-900",
  under_review: "bg-sky-100 text-sky-900",
  won: "bg-emerald-100 text-emerald-900",
  lost: "bg-red-100 text-red-900",
  accepted: "bg-slate-100 text-slate-800",
};

/** A dispute's status in the dashboard's words. */
export function DisputeStatusBadge({ status }: { status: DisputeStatus }) {
  return (
    <span className={`badge ${TONES[status]}`} data-testid="dispute-status">
      {DISPUTE_STATUS_LABELS[status]}
    </span>
  );
}

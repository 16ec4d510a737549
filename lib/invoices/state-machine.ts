import { INVOICE_STATUSES, RESOLUTIONS, type InvoiceStatus, type Resolution } from "@/lib/db/enums";
import type { InvoiceDirection } from "@/lib/providers";

export { INVOICE_STATUSES, RESOLUTIONS, type InvoiceStatus, type Resolution } from "@/lib/db/enums";

/** Every invoice starts here, without a resolution; only `transition` moves it on. */
export const INITIAL_STATUS = "created" satisfies InvoiceStatus;

/** Refunds exist only for payments and cancels only for payouts (REFERENCE "Statuses"). */
const PAYMENT_ONLY: ReadonlySet<InvoiceStatus> = new Set(["refunding", "refunded", "partially_refunded", "authorized", "capturing", "voiding", "voided"]);
const PAYOUT_ONLY: ReadonlySet<InvoiceStatus> = new Set(["canceling", "canceled", "partially_canceled"]);

/** Money moved as asked: only `ok` explains these. */
const SUCCEEDED: ReadonlySet<InvoiceStatus> = new Set([
  "processed",
  "partially_processed",
  "refunded",
  "partially_refunded",
  "canceled",
  "partially_canceled",
  "authorized",
]);
/** Still moving: no resolution yet. */
const IN_FLIGHT: ReadonlySet<InvoiceStatus> = new Set(["created", "processing", "process_pending", "refunding", "canceling", "capturing", "voiding"]);

/**
 * Allowed moves. process_error is an unknown outcome that only a status request settles, so it
 * never goes to expired. process_failed may go back to processing for a new attempt while the
 * attempts limit (default 5) is not reached; `transition` enforces that limit. A failed invoice
 * with attempts left is still unpaid, so its lifetime can end it (expired). An unknown outcome may
 * turn out to be pending (the provider answers "waiting for 3-D Secure" after a timeout). expired
 * takes one move only: a provider's late success for the attempt that was still waiting when the
 * lifetime ended (the customer finished 3-D Secure after it), because money taken must never be
 * hidden behind an expired invoice.
 */
export const TRANSITIONS: Readonly<Record<InvoiceStatus, readonly InvoiceStatus[]>> = {
  // A payout canceled before it was sent goes straight to canceled (payouts only, as every cancel state).
  created: ["processing", "expired", "terminated", "canceled"],
  processing: ["processed", "partially_processed", "process_failed", "process_pending", "process_error", "authorized"],
  process_pending: ["processing", "processed", "partially_processed", "process_failed", "process_error", "expired", "canceling", "authorized"],
  process_error: ["processed", "partially_processed", "process_failed", "process_pending", "processing", "authorized"],
  process_failed: ["processing", "expired"],
  processed: ["refunding", "canceling"],
  partially_processed: ["refunding", "canceling"],
  // A refund in flight settles to what has been refunded by then: all of it, part of it, or (every
  // refund declined) nothing, back to what the payment was. Partial refunds may follow each other.
  refunding: ["refunded", "partially_refunded", "processed", "partially_processed"],
  // A cancel the provider did not take, or took too late, goes back to waiting on its status request.
  canceling: ["canceled", "partially_canceled", "processed", "partially_processed", "process_pending"],
  expired: ["processed", "partially_processed", "authorized"],
  terminated: [],
  refunded: [],
  partially_refunded: ["refunding"],
  canceled: [],
  partially_canceled: [],
  // Authorize now, capture later. A capture or void moves to its in-flight status first
  // (compare-and-set: the one lock against a second capture, or a capture and a void); one the
  // provider did not take goes back to authorized. An expired authorization is voided by the sweep.
  authorized: ["capturing", "voiding"],
  capturing: ["processed", "partially_processed", "authorized"],
  voiding: ["voided", "authorized"],
  voided: [],
};

export type TransitionSubject = {
  status: InvoiceStatus;
  direction: InvoiceDirection;
  /** True once the payout's attempts limit is used up; process_failed is then final. */
  attemptsExhausted?: boolean;
};

export class IllegalTransitionError extends Error {
  override name = "IllegalTransitionError";
  constructor(
    readonly from: string,
    readonly to: string,
    readonly direction: InvoiceDirection,
    reason: string,
  ) {
    super(`Illegal ${direction} invoice transition ${from} → ${to}: ${reason}`);
  }
}

const isStatus = (value: string): value is InvoiceStatus => (INVOICE_STATUSES as readonly string[]).includes(value);
const isResolution = (value: string): value is Resolution => (RESOLUTIONS as readonly string[]).includes(value);

function belongsTo(status: InvoiceStatus, direction: InvoiceDirection): boolean {
  if (PAYMENT_ONLY.has(status)) return direction === "payment";
  if (PAYOUT_ONLY.has(status)) return direction === "payout";
  return true;
}

function resolutionProblem(to: InvoiceStatus, resolution: string | undefined): string | undefined {
  if (resolution === undefined) return undefined;
  if (!isResolution(resolution)) return `unknown resolution "${resolution}"`;
  if (IN_FLIGHT.has(to)) return `${to} is not an outcome and takes no resolution, got "${resolution}"`;
  if (SUCCEEDED.has(to) && resolution !== "ok") return `${to} takes resolution "ok", got "${resolution}"`;
  if (!SUCCEEDED.has(to) && resolution === "ok") return `${to} is not a success and cannot have resolution "ok"`;
  return undefined;
}

/**
 * The one move onto the same status: an unknown outcome whose status requests went
 * unanswered for the invoice's whole lifetime stays process_error, now with the resolution
 * unable_to_reconcile, so the history and the merchant's webhook record that reconciliation gave
 * up (the money may have moved: it must never turn into a failure a new attempt could follow).
 * It is not in TRANSITIONS because it is not a move to another status and needs that resolution.
 */
const SAME_STATUS_MOVES: Partial<Record<InvoiceStatus, Resolution>> = { process_error: "unable_to_reconcile" };

/** Why the move is illegal, or undefined when it is allowed. */
function problemOf(invoice: TransitionSubject, to: string, resolution: string | undefined): string | undefined {
  const { status: from, direction } = invoice;
  if (!isStatus(from)) return `unknown status "${from}"`;
  if (!isStatus(to)) return `unknown status "${to}"`;
  if (!belongsTo(from, direction)) return `${from} does not exist for ${direction} invoices`;
  if (!belongsTo(to, direction)) return `${to} does not exist for ${direction} invoices`;
  if (from === to && SAME_STATUS_MOVES[from] !== undefined) {
    const only = SAME_STATUS_MOVES[from];
    return resolution === only ? undefined : `${from} stays ${from} only to record resolution "${only}"`;
  }
  if (!TRANSITIONS[from].includes(to)) return `${from} cannot move to ${to}`;
  if (from === "process_failed" && invoice.attemptsExhausted) return "the attempts limit is reached";
  return resolutionProblem(to, resolution);
}

export function canTransition(invoice: TransitionSubject, to: InvoiceStatus, resolution?: Resolution): boolean {
  return problemOf(invoice, to, resolution) === undefined;
}

/** Returns the new status or throws: an illegal move is a bug and must be loud, never ignored. */
export function transition(invoice: TransitionSubject, to: InvoiceStatus, resolution?: Resolution): InvoiceStatus {
  const problem = problemOf(invoice, to, resolution);
  if (problem !== undefined) throw new IllegalTransitionError(invoice.status, to, invoice.direction, problem);
  return to;
}

/** Statuses reachable in one move; empty when the invoice is final. */
export function nextStatuses(invoice: TransitionSubject): InvoiceStatus[] {
  return INVOICE_STATUSES.filter((to) => problemOf(invoice, to, undefined) === undefined);
}

/**
 * Final means no move can follow. processed is not final (a refund or cancel may follow), and
 * process_failed is final only once the attempts limit is reached (REFERENCE "Statuses"). expired is
 * final: only the exceptional late success of TRANSITIONS may still correct it.
 */
export function isFinal(status: InvoiceStatus, options: { attemptsExhausted?: boolean } = {}): boolean {
  if (status === "process_failed") return options.attemptsExhausted === true;
  if (status === "expired") return true;
  return TRANSITIONS[status].length === 0;
}

/** Moves that only a request of the merchant starts: a refund, a payout cancel. */
const ASKED_FOR: ReadonlySet<InvoiceStatus> = new Set(["refunding", "canceling"]);

/**
 * Nothing will change the invoice on its own: it is final, or each move left needs the merchant to
 * ask (a processed payment changes only when a refund is asked for). The invoice page stops checking
 * for changes then, and says so.
 */
export function isAtRest(status: InvoiceStatus, options: { attemptsExhausted?: boolean } = {}): boolean {
  return isFinal(status, options) || TRANSITIONS[status].every((to) => ASKED_FOR.has(to));
}

/**
 * Statuses of the REFERENCE that nothing in this service moves an invoice to: no request, job or
 * callback terminates an invoice. Kept in the value set (the API may name them), never offered.
 */
const NEVER_ENTERED: ReadonlySet<InvoiceStatus> = new Set(["terminated"]);

/**
 * The statuses an invoice can be in: reached from `created` through TRANSITIONS by moves of its
 * direction (refunds for payments, cancels for payouts), less those nothing enters. Without a
 * direction, either direction's. In INVOICE_STATUSES order, for a filter's options.
 */
export function possibleStatuses(direction?: InvoiceDirection): InvoiceStatus[] {
  if (direction === undefined) {
    const either = new Set([...possibleStatuses("payment"), ...possibleStatuses("payout")]);
    return INVOICE_STATUSES.filter((status) => either.has(status));
  }
  const reached = new Set<InvoiceStatus>([INITIAL_STATUS]);
  const queue: InvoiceStatus[] = [INITIAL_STATUS];
  for (let from = queue.shift(); from !== undefined; from = queue.shift()) {
    for (const to of TRANSITIONS[from]) {
      if (reached.has(to) || !belongsTo(to, direction) || NEVER_ENTERED.has(to)) continue;
      reached.add(to);
      queue.push(to);
    }
  }
  return INVOICE_STATUSES.filter((status) => reached.has(status));
}

import "server-only";
import type { Db } from "@/lib/db/client";
import { attemptsExhausted, isExpirableStatus, isPastLifetime } from "@/lib/invoices/lifecycle";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import type { JobName } from "@/lib/jobs/names";
import { listScheduledJobs, type ScheduledJob } from "@/lib/jobs/queue";
import { logger } from "@/lib/logger";
import type { ProviderOutcome } from "@/lib/providers/kit/adapter";
import { findOpenAttempt } from "./attempts";
import { isFinal } from "@/lib/invoices/state-machine";
import { notOpenReason, reconcileAttempt } from "./reconcile";

/**
 * The invoice page's "Scheduled" section and its "Check status now": what the queue
 * holds for the invoice, in plain words (job payloads carry ids only, and only labels leave here),
 * and one status request on demand for the open attempt.
 */

type ScheduledItem = {
  id: string;
  label: string;
  runAt: string;
  state: string;
  retries: number;
};

export type InvoiceSchedule = {
  expiresAt: string;
  /** Nothing more will happen to the invoice on its own (expired, paid…). */
  final: boolean;
  /** The lifetime is over. */
  pastLifetime: boolean;
  /** Whether the invoice may still expire; a paid, failed for good or expired one no longer does. */
  mayExpire: boolean;
  status: InvoiceRow["status"];
  /** The attempt a status request would ask about, or why there is none. */
  check: { possible: true; attemptSeq: number; attemptStatus: string } | { possible: false; reason: string };
  items: ScheduledItem[];
  /** The queue could not be read (the page still shows the rest). */
  queueUnavailable: boolean;
};

const asNumber = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

function labelOf(job: ScheduledJob): string {
  const names: Record<JobName, () => string> = {
    "invoice-reconcile": () => `Status request ${(asNumber(job.data.step) ?? 0) + 1}`,
    "invoice-expire": () => "Expiry check",
    "payout-process": () => "Next payout attempt (cascade)",
    "webhook-deliver": () => `Webhook delivery, try ${asNumber(job.data.tryNo) ?? 1}`,
    "sandbox-callback": () => "Sandbox callback to this service",
    "sandbox-refund-settle": () => "Sandbox settling a pending test refund",
    "sandbox-dispute-open": () => "Sandbox opening a test dispute",
    "sandbox-dispute-decide": () => "Sandbox deciding a test dispute",
    "credentials-reseal": () => "Credentials re-seal after a key rotation",
    "refund-reconcile": () => `Refund status request ${(asNumber(job.data.step) ?? 0) + 1}`,
    "authorization-reconcile": () => `Capture or void status request ${(asNumber(job.data.step) ?? 0) + 1}`,
    "dispute-follow-up": () => "Dispute status request",
  };
  return names[job.name]?.() ?? job.name;
}

/**
 * The expiry check of an invoice that may still expire: not a queued job (the expiry sweep finds
 * overdue invoices by expires_at), shown beside the jobs because it is what will happen next.
 */
function expiryItem(invoice: InvoiceRow): ScheduledItem[] {
  if (!isExpirableStatus(invoice.status)) return [];
  return [{ id: `expiry-${invoice.id}`, label: "Expiry check", runAt: invoice.expiresAt.toISOString(), state: "scheduled", retries: 0 }];
}

/** The merchant's invoice's schedule; undefined for another merchant's invoice. */
export async function readInvoiceSchedule(db: Db, merchantId: string, invoiceId: string): Promise<InvoiceSchedule | undefined> {
  const invoice = await readInvoice(db, invoiceId);
  if (!invoice || invoice.merchantId !== merchantId) return undefined;
  const attempt = await findOpenAttempt(db, invoice.id);
  const refused = notOpenReason(invoice, attempt, { afterGivingUp: true });
  let jobs: ScheduledJob[] = [];
  let queueUnavailable = false;
  try {
    jobs = await listScheduledJobs(db, invoice.id);
  } catch (error) {
    queueUnavailable = true;
    logger.error("scheduled jobs could not be read", { invoiceId: invoice.id, error: error instanceof Error ? error.message : String(error) });
  }
  return {
    expiresAt: invoice.expiresAt.toISOString(),
    final:
      isFinal(invoice.status, { attemptsExhausted: attemptsExhausted(invoice) }) || invoice.status === "processed" || invoice.status === "partially_processed",
    pastLifetime: isPastLifetime(invoice),
    mayExpire: isExpirableStatus(invoice.status),
    status: invoice.status,
    check:
      refused || !attempt
        ? { possible: false, reason: `Nothing to ask the provider: ${refused ?? "no attempt is waiting"}.` }
        : { possible: true, attemptSeq: attempt.seq, attemptStatus: attempt.status },
    // A job that will find nothing to do (a status request after the invoice settled, an expiry
    // check of an invoice that can no longer expire) is not shown: it is not something that will happen.
    items: [
      ...expiryItem(invoice),
      ...jobs
        .filter(
          (job) => !((job.name === "invoice-reconcile" && refused !== undefined) || (job.name === "invoice-expire" && !isExpirableStatus(invoice.status))),
        )
        .map((job) => ({ id: job.id, label: labelOf(job), runAt: job.startAfter.toISOString(), state: job.state, retries: job.retryCount })),
    ],
    queueUnavailable,
  };
}

export type CheckStatusAnswer = { status: InvoiceRow["status"]; resolution: InvoiceRow["resolution"]; settled: boolean; message: string };

function said(outcome: ProviderOutcome): string {
  switch (outcome.kind) {
    case "succeeded":
      return "the payment went through";
    case "pending":
      return "still waiting (for example for the customer's 3-D Secure step)";
    case "declined":
    case "soft_failed":
      return `it failed (${outcome.resolution.replaceAll("_", " ")})`;
    case "unknown":
      return "no answer";
  }
}

/**
 * "Check status now": one status request for the merchant's invoice's open attempt, applied like a
 * scheduled one. Also after reconciliation gave up (unable_to_reconcile), so a person can still
 * learn the outcome. Another merchant's invoice is not found.
 */
export async function checkStatusNow(
  db: Db,
  merchantId: string,
  invoiceId: string,
): Promise<{ ok: true; data: CheckStatusAnswer } | { ok: false; message: string }> {
  const invoice = await readInvoice(db, invoiceId);
  if (!invoice || invoice.merchantId !== merchantId) return { ok: false, message: "This invoice does not exist." };
  const attempt = await findOpenAttempt(db, invoice.id);
  const refused = notOpenReason(invoice, attempt, { afterGivingUp: true });
  if (refused || !attempt) return { ok: false, message: `Nothing to ask the provider: ${refused ?? "no attempt is waiting"}.` };
  const result = await reconcileAttempt(db, { invoiceId, attemptId: attempt.id }, { reason: "status request (Check status now)", afterGivingUp: true });
  if (result.kind === "nothing_open") return { ok: false, message: `Nothing to ask the provider: ${result.reason}.` };
  const status = result.invoice.status;
  const now = `The invoice is ${status.replaceAll("_", " ")}${result.invoice.resolution ? ` (${result.invoice.resolution.replaceAll("_", " ")})` : ""}.`;
  return {
    ok: true,
    data: {
      status,
      resolution: result.invoice.resolution,
      settled: result.kind === "settled",
      message: `The provider answered: ${said(result.outcome)}. ${now}`,
    },
  };
}

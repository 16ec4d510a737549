import "server-only";
import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import { IllegalTransitionError } from "@/lib/invoices/state-machine";
import { changeInvoiceStatus, StaleInvoiceStatusError } from "@/lib/invoices/status";
import { logger } from "@/lib/logger";
import type { JobSweep } from "@/lib/jobs/task";
import type { ProviderOutcome } from "@/lib/providers/kit/adapter";
import { listAttempts, recordOutcome, type AttemptRow } from "./attempts";
import { schedulePayoutCascade, scheduleFollowUps } from "./follow-ups";
import { settleInvoice } from "./settle";

/**
 * Requests the server died in the middle of (jobs and state survive a kill). A payment
 * request holds its invoice in `processing` only for as long as its provider calls take (seconds,
 * bounded by their time-outs), so an invoice `processing` for longer than INTERRUPTED_AFTER_SECONDS
 * lost its request. Its latest attempt says what is known: one still in flight may have reached the
 * provider, so it becomes unknown and reconciliation asks (never a new attempt); one that was
 * answered but not yet applied is applied now; without any attempt nothing was sent and the invoice
 * may be paid again.
 */
const INTERRUPTED_AFTER_SECONDS = 10 * 60;

/** What a recorded attempt says, as the outcome the engine would have settled with. */
function outcomeOfAttempt(attempt: AttemptRow): ProviderOutcome {
  const providerReference = attempt.providerReference ?? undefined;
  const message = attempt.message ?? "recorded before the request was interrupted";
  switch (attempt.status) {
    case "succeeded":
      return { kind: "succeeded", providerReference: providerReference ?? "", processedAmountMinor: attempt.processedAmountMinor ?? 0n };
    case "pending":
      return { kind: "pending", providerReference: providerReference ?? "" };
    case "declined":
      return {
        kind: "declined",
        resolution: (attempt.resolution ?? "general_error") as Extract<ProviderOutcome, { kind: "declined" }>["resolution"],
        providerReference,
        message,
      };
    case "soft_failed":
      return {
        kind: "soft_failed",
        resolution: (attempt.resolution ?? "provider_unavailable") as Extract<ProviderOutcome, { kind: "soft_failed" }>["resolution"],
        providerReference,
        message,
      };
    default:
      return { kind: "unknown", providerReference, message };
  }
}

async function recoverOne(db: Db, invoice: InvoiceRow): Promise<boolean> {
  const reason = "payment request interrupted (recovered)";
  const latest = (await listAttempts(db, invoice.id)).at(-1);
  if (!latest) {
    await changeInvoiceStatus(db, invoice, "process_failed", "general_error", { reason: `${reason}: no provider was called` });
    return true;
  }
  const attempt =
    latest.status === "in_flight"
      ? ((await recordOutcome(db, latest, { kind: "unknown", message: "The request was interrupted before the provider's answer was recorded." }, [])) ??
        latest)
      : latest;
  const settled = await settleInvoice(db, invoice, outcomeOfAttempt(attempt), reason);
  await scheduleFollowUps(db, settled);
  await schedulePayoutCascade(db, settled, attempt);
  return true;
}

/** The sweep: invoices `processing` for longer than `olderThanSeconds`, oldest first. */
export async function recoverInterruptedRequests(db: Db, scope: { merchantId?: string; limit?: number; olderThanSeconds?: number } = {}): Promise<number> {
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.status, "processing"),
        lte(invoices.updatedAt, sql`now() - make_interval(secs => ${scope.olderThanSeconds ?? INTERRUPTED_AFTER_SECONDS})`),
        scope.merchantId ? eq(invoices.merchantId, scope.merchantId) : undefined,
      ),
    )
    .orderBy(asc(invoices.updatedAt))
    .limit(scope.limit ?? 200);
  let recovered = 0;
  for (const { id } of rows) {
    const invoice = await readInvoice(db, id);
    if (invoice?.status !== "processing") continue;
    try {
      if (await recoverOne(db, invoice)) recovered += 1;
    } catch (error) {
      // Its request finished meanwhile: nothing to recover.
      if (!(error instanceof StaleInvoiceStatusError) && !(error instanceof IllegalTransitionError)) throw error;
      logger.info("interrupted request already settled", { invoiceId: id });
    }
  }
  return recovered;
}

export const recoverInterruptedRequestsSweep: JobSweep = { name: "recover-interrupted-requests", run: (db) => recoverInterruptedRequests(db) };

import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoiceAttempts } from "@/lib/db/schema";
import type { InvoiceRow } from "@/lib/invoices/create/store";
import { StaleInvoiceStatusError } from "@/lib/invoices/status";
import type { ProviderOutcome } from "./adapter";
import { recordOutcome, type AttemptRow } from "./attempts";
import type { Exchange } from "./provider-http";
import { OPEN_ATTEMPT, schedulePayoutCascade, scheduleFollowUps } from "./follow-ups";
import { readInvoice } from "./request";
import { settleInvoice } from "./settle";

/** Statuses in which an invoice waits for its latest attempt's outcome. */
const WAITING: ReadonlySet<InvoiceRow["status"]> = new Set(["processing", "process_pending", "process_error"]);

export type ApplyResult =
  | { kind: "applied"; invoice: InvoiceRow; attempt: AttemptRow }
  /** The invoice has left this attempt (a newer one exists), or the attempt or invoice is already final: nothing changed. */
  | { kind: "superseded"; reason: string; invoice?: InvoiceRow };

/**
 * An outcome learnt after the attempt's request (a status request, a provider callback) applied
 * through the one path: onto the attempt, then the invoice through the state machine. It applies
 * only to the invoice's latest attempt while that attempt is open and the invoice waits for it, so a
 * late answer about an attempt the invoice has left (after cascading) never overwrites the newer
 * attempt's outcome.
 *
 * Follow-ups (issue 11): an attempt that was in flight and is now pending or unknown gets its first
 * scheduled status request (later ones are queued by each status request); a payout whose attempt
 * is now a soft failure cascades to the next connection in a job.
 */
export async function applyAttemptOutcome(
  db: Db,
  input: { invoiceId: string; attemptId: string; outcome: ProviderOutcome; reason: string; exchanges?: readonly Exchange[] },
): Promise<ApplyResult> {
  const invoice = await readInvoice(db, input.invoiceId);
  if (!invoice) return { kind: "superseded", reason: "no such invoice" };
  const [attempt] = await db
    .select()
    .from(invoiceAttempts)
    .where(and(eq(invoiceAttempts.id, input.attemptId), eq(invoiceAttempts.invoiceId, input.invoiceId)))
    .limit(1);
  if (!attempt) return { kind: "superseded", reason: "no such attempt of this invoice", invoice };
  if (attempt.seq < invoice.attemptsCount) return { kind: "superseded", reason: `the invoice has moved on to attempt ${invoice.attemptsCount}`, invoice };
  if (!OPEN_ATTEMPT.has(attempt.status)) return { kind: "superseded", reason: `the attempt is already ${attempt.status.replaceAll("_", " ")}`, invoice };
  if (!WAITING.has(invoice.status)) return { kind: "superseded", reason: `the invoice is already ${invoice.status.replaceAll("_", " ")}`, invoice };
  if (input.outcome.kind === "unknown" && attempt.status !== "in_flight") {
    // Still not known: the attempt keeps its state; only the exchange is logged.
    const recorded = await recordOutcome(db, attempt, { ...input.outcome, kind: attempt.status === "pending" ? "pending" : "unknown" } as ProviderOutcome, input.exchanges ?? []);
    return { kind: "applied", invoice, attempt: recorded };
  }
  const recorded = await recordOutcome(db, attempt, input.outcome, input.exchanges ?? []);
  let settled: InvoiceRow;
  try {
    settled = await settleInvoice(db, invoice, input.outcome, input.reason);
  } catch (error) {
    if (!(error instanceof StaleInvoiceStatusError)) throw error;
    const now = await readInvoice(db, input.invoiceId);
    return { kind: "applied", invoice: now ?? invoice, attempt: recorded };
  }
  if (attempt.status === "in_flight") await scheduleFollowUps(db, settled);
  await schedulePayoutCascade(db, settled, recorded);
  return { kind: "applied", invoice: settled, attempt: recorded };
}

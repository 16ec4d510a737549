import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoiceAttempts } from "@/lib/db/schema";
import type { InvoiceRow } from "@/lib/invoices/create/store";
import { StaleInvoiceStatusError } from "@/lib/invoices/status";
import type { ProviderOutcome } from "./adapter";
import { recordOutcome, type AttemptRow } from "./attempts";
import type { Exchange } from "./provider-http";
import { readInvoice } from "./request";
import { settleInvoice } from "./settle";

/** Statuses in which an invoice waits for its latest attempt's outcome. */
const WAITING: ReadonlySet<InvoiceRow["status"]> = new Set(["processing", "process_pending", "process_error"]);
/** Attempt statuses a later answer may still change. */
const OPEN_ATTEMPT: ReadonlySet<AttemptRow["status"]> = new Set(["in_flight", "pending", "unknown"]);

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
  try {
    const settled = await settleInvoice(db, invoice, input.outcome, input.reason);
    return { kind: "applied", invoice: settled, attempt: recorded };
  } catch (error) {
    if (!(error instanceof StaleInvoiceStatusError)) throw error;
    const now = await readInvoice(db, input.invoiceId);
    return { kind: "applied", invoice: now ?? invoice, attempt: recorded };
  }
}

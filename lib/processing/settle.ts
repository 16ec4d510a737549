import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { attemptsExhausted } from "@/lib/invoices/lifecycle";
import type { InvoiceRow } from "@/lib/invoices/store";
import type { InvoiceStatus, Resolution } from "@/lib/invoices/state-machine";
import { changeInvoiceStatus } from "@/lib/invoices/status";
import type { ProviderOutcome } from "@/lib/providers/kit/adapter";
import { settleAuthorized } from "./authorization";
import { saveCardOfPayment } from "@/lib/payment-methods/store";

type Target = { status: InvoiceStatus; resolution?: Resolution; processedMinor?: bigint; authorizedMinor?: bigint; authorizedUntil?: Date };

/**
 * Where an outcome takes the invoice. A partial success (the provider collected or paid out less
 * than asked) is partially_processed only with allow_partially; without it the invoice failed,
 * though what moved is still recorded as processed_amount. Unknown stays unknown: process_error,
 * which only a later status request settles.
 */
export function targetOf(invoice: Pick<InvoiceRow, "amountMinor" | "options"> & { flow?: string | null }, outcome: ProviderOutcome): Target {
  switch (outcome.kind) {
    case "succeeded": {
      const processedMinor = outcome.processedAmountMinor;
      // Authorize now, capture later: the money is reserved, nothing is taken yet. A payment of flow
      // "authorize" is only ever sent as an authorization (never as a sale), so its success is one even
      // when what says so cannot tell (a recovered attempt's recorded outcome, which keeps no hold time).
      if (invoice.flow === "authorize") {
        if (processedMinor >= invoice.amountMinor || invoice.options.allow_partially === true) {
          return { status: "authorized", resolution: "ok", authorizedMinor: processedMinor, authorizedUntil: outcome.authorized?.until };
        }
        return { status: "process_failed", resolution: "general_error" };
      }
      if (processedMinor >= invoice.amountMinor) return { status: "processed", resolution: "ok", processedMinor };
      if (invoice.options.allow_partially === true) return { status: "partially_processed", resolution: "ok", processedMinor };
      return { status: "process_failed", resolution: "general_error", processedMinor };
    }
    case "pending":
      return { status: "process_pending" };
    case "declined":
    case "soft_failed":
      return { status: "process_failed", resolution: outcome.resolution };
    case "unknown":
      return { status: "process_error" };
  }
}

/** Moves the invoice (now `processing` or `process_pending`) to where the outcome says, through the state machine. */
export async function settleInvoice(db: Db, invoice: InvoiceRow, outcome: ProviderOutcome, reason: string): Promise<InvoiceRow> {
  const target = targetOf(invoice, outcome);
  if (target.status === invoice.status) return invoice;
  if (target.status === "authorized") return settleAuthorized(db, invoice, target.authorizedMinor ?? invoice.amountMinor, target.authorizedUntil, reason);
  // A payment that asked to save its card: the payment method first, so the status change's event carries it.
  if (outcome.kind === "succeeded" && outcome.savedCard && (target.status === "processed" || target.status === "partially_processed")) {
    await saveCardOfPayment(db, invoice, outcome.savedCard);
  }
  if (target.processedMinor !== undefined) {
    await db
      .update(invoices)
      .set({ processedAmountMinor: target.processedMinor, updatedAt: sql`now()` })
      .where(eq(invoices.id, invoice.id));
  }
  return changeInvoiceStatus(db, invoice, target.status, target.resolution, {
    reason,
    attemptsExhausted: attemptsExhausted(invoice),
  });
}

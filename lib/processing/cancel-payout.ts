import "server-only";
import { findConnectionRow } from "@/lib/connections/queries";
import type { Db } from "@/lib/db/client";
import { recordInvoiceEvent, type RecordedEvent } from "@/lib/invoices/events";
import { getInvoice } from "@/lib/invoices/read/get-invoice";
import {
  changeInvoiceStatus,
  changeInvoiceStatusWithin,
  queueEventDelivery,
  queueStatusEvent,
  StaleInvoiceStatusError,
  type StatusChange,
} from "@/lib/invoices/status";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import type { Mode } from "@/lib/providers";
import type { CancelPayoutOutcome } from "@/lib/providers/kit/adapter";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { applyAttemptOutcome } from "./apply-outcome";
import { findOpenAttempt, recordOutcome } from "./attempts";
import { prepare } from "./run-attempt";

/**
 * Cancel of a payout the provider has not completed (`POST /api/commerce/payout-invoices/{id}/cancel`,
 * Cancel payout on its page). A payout never sent is canceled here (created → canceled, nothing to
 * ask anyone). A payout the provider took and is still paying (process_pending) moves to
 * `canceling` first (compare-and-set: the lock against a second cancel, a callback or a status
 * request settling it meanwhile), then the provider is asked to stop it: `canceled` (nothing was
 * paid), `partially_canceled` (the parts already paid stay paid: processed_amount says how much),
 * or, when the provider had already finished, back to process_pending and the status request
 * settles it as any other. A cancel the provider did not take changes nothing.
 */
export const PAYOUT_CANCELED = "payout.canceled";

export type CancelPayoutResult =
  | { kind: "canceled"; invoice: InvoiceRow }
  | { kind: "not_found" }
  | { kind: "test_only" }
  | { kind: "refused"; code: string; detail: string; invoice?: InvoiceRow };

const money = (invoice: InvoiceRow) => `${invoice.amount} ${invoice.currency}`;

/** Moves the payout to canceled or partially_canceled and writes payout.canceled, in one transaction. */
async function settleCanceled(db: Db, invoice: InvoiceRow, to: "canceled" | "partially_canceled", paidMinor: bigint, reason: string): Promise<InvoiceRow> {
  const change = await db.transaction(async (tx): Promise<{ change: StatusChange; event: RecordedEvent }> => {
    const moved = await changeInvoiceStatusWithin(tx, invoice, to, "ok", {
      reason,
      ...(to === "partially_canceled" ? { processedAmountMinor: paidMinor } : {}),
    });
    return { change: moved, event: await recordInvoiceEvent(tx, moved.row, PAYOUT_CANCELED) };
  });
  await queueStatusEvent(db, change.change);
  await queueEventDelivery(db, invoice.id, change.event);
  return change.change.row;
}

export async function cancelPayoutInvoice(
  db: Db,
  merchantId: string,
  id: string,
  options: { testOnly: boolean; /** An API key's mode: a payout of the other mode is not found. */ mode?: Mode },
): Promise<CancelPayoutResult> {
  const found = await getInvoice(db, merchantId, "payout", id, options.mode);
  if (!found) return { kind: "not_found" };
  const invoice = (await readInvoice(db, found.id))!;
  if (options.testOnly && !invoice.testMode) return { kind: "test_only" };

  if (invoice.status === "created") {
    try {
      return { kind: "canceled", invoice: await settleCanceled(db, invoice, "canceled", 0n, "canceled before it was sent") };
    } catch (error) {
      if (!(error instanceof StaleInvoiceStatusError)) throw error;
      return { kind: "refused", code: "payout_moving", detail: "The payout is being sent to the provider right now; cancel it again in a moment." };
    }
  }
  if (invoice.status !== "process_pending") return { kind: "refused", code: "not_cancelable", detail: notCancelable(invoice), invoice };

  const attempt = await findOpenAttempt(db, invoice.id);
  const connection = attempt && (await findConnectionRow(db, merchantId, attempt.connectionId));
  const recorder = createExchangeRecorder();
  const prepared = attempt && connection ? await prepare(db, invoice, connection, recorder) : undefined;
  if (prepared && "failure" in prepared && prepared.failure.kind === "soft_failed" && prepared.failure.resolution === "mode_mismatch") {
    // The invoice's mode and its connection's disagree: nothing is asked of any provider.
    return { kind: "refused", code: "mode_mismatch", detail: `This payout cannot be canceled: ${prepared.failure.message}`, invoice };
  }
  if (!attempt || !prepared || "failure" in prepared || !prepared.adapter.cancelPayout) {
    const why = !attempt ? "no attempt is waiting on the provider" : !connection ? "its connection was deleted" : "its provider cannot be asked to stop it";
    return { kind: "refused", code: "not_cancelable", detail: `This payout cannot be canceled: ${why}.`, invoice };
  }

  let canceling: InvoiceRow;
  try {
    canceling = await changeInvoiceStatus(db, invoice, "canceling", undefined, { reason: "cancel asked for" });
  } catch (error) {
    if (!(error instanceof StaleInvoiceStatusError)) throw error;
    const now = (await readInvoice(db, invoice.id)) ?? invoice;
    return { kind: "refused", code: "not_cancelable", detail: notCancelable(now), invoice: now };
  }

  let outcome: CancelPayoutOutcome;
  try {
    outcome = await prepared.adapter.cancelPayout(prepared.context, {
      idempotencyKey: attempt.idempotencyKey,
      providerReference: attempt.providerReference ?? undefined,
    });
  } catch (error) {
    logger.error("provider adapter threw on a payout cancel", { invoiceId: invoice.id, error: error instanceof Error ? error.message : String(error) });
    outcome = { kind: "unknown", message: "The cancel failed unexpectedly; whether the payout stopped is not known." };
  }
  const exchanges = recorder.list();

  if (outcome.kind === "canceled" || outcome.kind === "partially_canceled") {
    const paid = outcome.kind === "partially_canceled";
    await recordOutcome(
      db,
      attempt,
      paid
        ? {
            kind: "succeeded",
            providerReference: outcome.providerReference,
            processedAmountMinor: outcome.paidMinor,
            ...(outcome.parts ? { parts: outcome.parts } : {}),
          }
        : { kind: "declined", resolution: "canceled", providerReference: outcome.providerReference, message: "Canceled before any of it was paid." },
      exchanges,
    );
    const reason = paid ? "canceled by the merchant; the parts already paid stay paid" : "canceled by the merchant before any of it was paid";
    return { kind: "canceled", invoice: await settleCanceled(db, canceling, outcome.kind, outcome.paidMinor, reason) };
  }

  // Not canceled: the payout is back to waiting on the provider, whose status request settles it.
  const notDone = outcome as Exclude<CancelPayoutOutcome, { kind: "canceled" | "partially_canceled" }>;
  const back = await changeInvoiceStatus(db, canceling, "process_pending", undefined, { reason: `cancel not done: ${notDone.message}` });
  if (notDone.kind === "too_late") {
    const status = await prepared.adapter.getStatus(prepared.context, {
      idempotencyKey: attempt.idempotencyKey,
      providerReference: attempt.providerReference ?? undefined,
      direction: "payout",
    });
    const applied = await applyAttemptOutcome(db, {
      invoiceId: invoice.id,
      attemptId: attempt.id,
      outcome: status,
      reason: "status request after a cancel came too late",
      exchanges: recorder.list().slice(exchanges.length),
    });
    const settled = applied.invoice ?? back;
    return {
      kind: "refused",
      code: "payout_final",
      detail: `Too late to cancel: the provider had already finished this payout (now ${settled.status}).`,
      invoice: settled,
    };
  }
  return {
    kind: "refused",
    code: notDone.kind === "unknown" ? "cancel_unknown" : "cancel_refused",
    detail: `The provider did not confirm the cancel (${notDone.message}); the payout of ${money(invoice)} is still in progress. Try again, or wait for its status.`,
    invoice: back,
  };
}

function notCancelable(invoice: InvoiceRow): string {
  switch (invoice.status) {
    case "processing":
      return "The payout is being sent to the provider right now; cancel it again in a moment.";
    case "canceling":
      return "A cancel of this payout is already in progress.";
    case "canceled":
    case "partially_canceled":
      return "This payout is already canceled.";
    case "processed":
    case "partially_processed":
      return "The provider has completed this payout; nothing is left to cancel.";
    default:
      return `A payout that is ${invoice.status.replaceAll("_", " ")} has nothing to cancel.`;
  }
}

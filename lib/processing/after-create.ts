import "server-only";
import type { Db } from "@/lib/db/client";
import { findConnectionRow } from "@/lib/connections/queries";
import type { CreateInvoiceResult } from "@/lib/invoices/create/create-invoice";
import { readInvoice, type InvoiceRow } from "@/lib/invoices/store";
import { logger } from "@/lib/logger";
import { getProviderServer } from "@/lib/providers/server/servers";
import { payWithoutHostedPage, processPayout } from "./engine";
import { ProblemsError } from "@/lib/errors";

/** Provider F's bypass_hpp is honoured only where the adapter can take a payment without a card. */
async function canBypass(db: Db, invoice: InvoiceRow): Promise<boolean> {
  if (invoice.options.bypass_hpp !== true || !invoice.connectionId) return false;
  const connection = await findConnectionRow(db, invoice.merchantId, invoice.connectionId);
  return Boolean(connection && getProviderServer(connection.provider)?.adapter.createPaymentWithoutCard);
}

/**
 * What happens right after a new invoice is stored, before the 201 is sent (so the answer shows
 * the result): a payout with auto_process goes to the provider (spec 4.2) with the full card
 * number the request carried, held in memory only; a payment with bypass_hpp goes without the
 * hosted page. Anything else waits (the hosted page, or POST …/process). A refusal or a failure
 * here never turns the creation into an error: the invoice is answered as it now stands.
 */
async function startAfterCreation(db: Db, invoice: InvoiceRow, cardNumber: string | undefined): Promise<InvoiceRow> {
  try {
    if (invoice.direction === "payout" && invoice.options.auto_process === true) {
      return await processPayout(db, invoice.id, { cardNumber });
    }
    if (invoice.direction === "payment" && (await canBypass(db, invoice))) {
      const result = await payWithoutHostedPage(db, invoice.id);
      return result.kind === "refused" ? invoice : result.invoice;
    }
    return invoice;
  } catch (error) {
    if (!(error instanceof ProblemsError)) {
      logger.error("processing after creation failed", { invoiceId: invoice.id, error: error instanceof Error ? error.message : "unknown" });
    }
    return (await readInvoice(db, invoice.id)) ?? invoice;
  }
}

/**
 * The create routes' one call: an invoice that asks to be processed at once is, before answering
 * (its expiry needs nothing queued: the expiry sweep finds it by its expires_at). A replay of an invoice still
 * `created` is started too: the first request died between storing it and calling the provider
 * (a crash, a kill), and the client's retry is the only thing that would ever start it. Starting
 * moves `created` to `processing` by compare-and-set, so a replay racing the first request cannot
 * send it twice.
 */
export async function startCreatedInvoice(db: Db, result: CreateInvoiceResult): Promise<CreateInvoiceResult> {
  if (result.kind !== "created" && result.kind !== "replayed") return result;
  if (result.kind === "replayed" && result.invoice.status !== "created") return result;
  const { options } = result.invoice;
  if (options.auto_process !== true && options.bypass_hpp !== true) return result;
  const invoice = await startAfterCreation(db, result.invoice, result.cardNumberForProvider);
  return invoice === result.invoice ? result : { kind: result.kind, invoice };
}

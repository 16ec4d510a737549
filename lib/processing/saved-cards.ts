import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoices } from "@/lib/db/schema";
import { findConnectionRow } from "@/lib/connections/queries";
import { createInvoice, type CreateInvoiceOptions, type CreateInvoiceResult } from "@/lib/invoices/create/create-invoice";
import { PAYMENT_METHOD_PATH } from "@/lib/invoices/contract/saved-cards";
import { readInvoice } from "@/lib/invoices/store";
import type { Merchant } from "@/lib/identity/membership";
import { logger } from "@/lib/logger";
import { findPaymentMethod, markDetached, type PaymentMethodView } from "@/lib/payment-methods/store";
import { usableToken } from "@/lib/payment-methods/tokens";
import { problem, type Problem } from "@/lib/problems";
import { createExchangeRecorder } from "@/lib/providers/kit/provider-http";
import { payWithSavedCard } from "./engine";
import { prepare } from "./run-attempt";

/**
 * Saved cards in the engine: charging one at creation, and detaching one (the provider
 * told where its API allows). lib/payment-methods stores them; this module calls providers.
 */

const ID_PATH = [...PAYMENT_METHOD_PATH, "data", "id"];

/** The payment method id a raw request body names, if it names one as a string (anything else is the schema's to refuse). */
function requestedMethodId(body: unknown): string | undefined {
  const data = (body as { data?: { relationships?: { payment_method?: { data?: { id?: unknown } } } } } | null)?.data;
  const id = data?.relationships?.payment_method?.data?.id;
  return typeof id === "string" ? id : undefined;
}

function requestedMode(body: unknown): "test" | "live" {
  return (body as { data?: { attributes?: { test_mode?: unknown } } } | null)?.data?.attributes?.test_mode === true ? "test" : "live";
}

export type SavedCardLookup = { kind: "none" } | { kind: "found"; method: PaymentMethodView } | { kind: "invalid"; problems: Problem[] };

/**
 * The saved card a create request charges, looked up within the merchant and the invoice's mode
 * (another merchant's, or the other mode's, is not found: a test card never reaches a live
 * connection). Detached: payment_method_detached; its connection deleted: payment_method_unusable.
 */
export async function findRequestedSavedCard(db: Db, merchantId: string, body: unknown, keyMode?: "test" | "live"): Promise<SavedCardLookup> {
  const id = requestedMethodId(body);
  // The other mode than the key's is refused by the create itself (403 key_mode_mismatch), before anything is looked up.
  if (id === undefined || (keyMode !== undefined && requestedMode(body) !== keyMode)) return { kind: "none" };
  const method = await findPaymentMethod(db, merchantId, requestedMode(body), id);
  if (!method) return { kind: "invalid", problems: [problem("payment_method_not_found", "No saved card of yours in this mode has this id.", ID_PATH)] };
  if (method.detachedAt)
    return { kind: "invalid", problems: [problem("payment_method_detached", "This saved card was detached; it can no longer be charged.", ID_PATH)] };
  if (method.connectionDeleted) {
    return {
      kind: "invalid",
      problems: [problem("payment_method_unusable", "The connection that holds this saved card was deleted; the card can no longer be charged.", ID_PATH)],
    };
  }
  return { kind: "found", method };
}

/**
 * POST /api/commerce/payment-invoices with data.relationships.payment_method: the invoice is created
 * routed to the card's provider only, linked to its payment method, and charged at once; the
 * answer shows the outcome. A replay of an invoice still `created` (the first request died before
 * charging) is charged; any other replay is answered as it stands.
 */
export async function createSavedCardCharge(
  db: Db,
  merchant: Pick<Merchant, "id" | "commerceAccount">,
  body: unknown,
  method: PaymentMethodView,
  options: CreateInvoiceOptions,
): Promise<CreateInvoiceResult> {
  const result = await createInvoice(db, merchant, "payment", body, {
    ...options,
    savedCard: { provider: method.provider, connectionId: method.connectionId },
  });
  if (result.kind !== "created" && result.kind !== "replayed") return result;
  if (result.invoice.status !== "created") return result;
  await db.update(invoices).set({ paymentMethodId: method.id }).where(eq(invoices.id, result.invoice.id));
  try {
    const paid = await payWithSavedCard(db, result.invoice.id, method);
    const invoice = paid.kind === "refused" ? await readInvoice(db, result.invoice.id) : paid.invoice;
    return { kind: result.kind, invoice: invoice ?? result.invoice };
  } catch (error) {
    logger.error("saved card charge failed", { invoiceId: result.invoice.id, error: error instanceof Error ? error.message : "unknown" });
    return { kind: result.kind, invoice: (await readInvoice(db, result.invoice.id)) ?? result.invoice };
  }
}

export type DetachResult =
  { kind: "detached"; method: PaymentMethodView; provider: "deleted" | "unknown_token" | "not_told" | "failed" } | { kind: "not_found" };

/**
 * DELETE …/payment-methods/{id}: the provider forgets the token where its API allows (a connection
 * deleted, or a provider that cannot be told, is not), and the method is detached whatever it
 * answered: the service never charges it again. A second DELETE finds it detached and says so.
 */
export async function detachPaymentMethod(db: Db, merchantId: string, mode: "test" | "live", id: string): Promise<DetachResult> {
  const method = await findPaymentMethod(db, merchantId, mode, id);
  if (!method) return { kind: "not_found" };
  if (method.detachedAt) return { kind: "detached", method, provider: "not_told" };
  const told = await tellProvider(db, method);
  return { kind: "detached", method: await markDetached(db, method), provider: told };
}

async function tellProvider(db: Db, method: PaymentMethodView): Promise<"deleted" | "unknown_token" | "not_told" | "failed"> {
  const connection = await findConnectionRow(db, method.merchantId, method.connectionId);
  if (!connection || connection.deletedAt) return "not_told";
  const token = await usableToken(db, method);
  if (!token) return "not_told";
  const recorder = createExchangeRecorder([token]);
  const prepared = await prepare(db, { testMode: method.testMode }, connection, recorder);
  if ("failure" in prepared || !prepared.adapter.tokens) return "not_told";
  try {
    const answer = await prepared.adapter.tokens.deleteToken(prepared.context, token);
    if (answer.kind === "failed") logger.warn("provider did not forget a saved card", { paymentMethodId: method.id, message: answer.message });
    return answer.kind;
  } catch (error) {
    logger.warn("provider did not forget a saved card", { paymentMethodId: method.id, error: error instanceof Error ? error.message : "unknown" });
    return "failed";
  }
}

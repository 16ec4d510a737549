import "server-only";
import { ApiError, ApiValidationError, testModeOnlyError } from "@/lib/api/errors";
import { jsonApi } from "@/lib/api/responses";
import type { Db } from "@/lib/db/client";
import type { InvoiceDirection, Mode } from "@/lib/providers";
import { getInvoice } from "../invoices/read/get-invoice";
import { listAttempts, listPayoutParts } from "../processing/attempts";
import { processPayout } from "../processing/engine";
import { cancelPayoutInvoice } from "../processing/cancel-payout";
import { ProblemsError } from "@/lib/errors";
import { testModeOnly } from "@/lib/problems";
import { toAttemptResource } from "./attempt-resource";
import { invoiceCollectionPath, toInvoiceResource } from "./invoice-resource";

const notFound = (direction: InvoiceDirection, id: string) =>
  new ApiError(404, "not_found", "Not found", `No ${direction} invoice ${id} exists for this merchant`);

/** GET …/{id}/attempts: the invoice's attempts, oldest first (not yours is 404 like unknown). */
export async function attemptListResponse(
  db: Db,
  merchantId: string,
  direction: InvoiceDirection,
  id: string,
  baseUrl: string,
  keyMode?: Mode,
): Promise<Response> {
  const invoice = await getInvoice(db, merchantId, direction, id, keyMode);
  if (!invoice) throw notFound(direction, id);
  const [attempts, parts] = await Promise.all([listAttempts(db, id), direction === "payout" ? listPayoutParts(db, id) : Promise.resolve([])]);
  const self = `${baseUrl}${invoiceCollectionPath(direction)}/${id}/attempts`;
  return jsonApi({ data: attempts.map((attempt) => toAttemptResource(attempt, invoice.currency, parts)), links: { self } }, { deferBody: true });
}

/** POST /api/commerce/payout-invoices/{id}/process: sends a waiting payout; 409 with the reasons when it cannot go. */
export async function processPayoutResponse(db: Db, merchantId: string, id: string, baseUrl: string, keyMode?: Mode): Promise<Response> {
  const invoice = await getInvoice(db, merchantId, "payout", id, keyMode);
  if (!invoice) throw notFound("payout", id);
  try {
    const processed = await processPayout(db, id);
    return jsonApi({ data: toInvoiceResource(processed, { baseUrl }) }, { deferBody: true });
  } catch (error) {
    if (error instanceof ProblemsError) throw new ApiValidationError(error.problems, { status: 409, base: "" });
    throw error;
  }
}

/** POST /api/commerce/payout-invoices/{id}/cancel: the payout after the cancel; 409 with the reason when it cannot be canceled. */
export async function cancelPayoutResponse(
  db: Db,
  merchantId: string,
  id: string,
  baseUrl: string,
  caller: { testOnly: boolean; keyMode?: Mode },
): Promise<Response> {
  const result = await cancelPayoutInvoice(db, merchantId, id, { testOnly: caller.testOnly, mode: caller.keyMode });
  switch (result.kind) {
    case "canceled":
      return jsonApi({ data: toInvoiceResource(result.invoice, { baseUrl }) }, { deferBody: true });
    case "not_found":
      throw notFound("payout", id);
    case "test_only":
      throw testModeOnlyError(testModeOnly("cancel", "payout"));
    case "refused":
      throw new ApiError(409, result.code, "Not canceled", result.detail);
  }
}

import { publicBaseUrl } from "@/lib/config";
import { refuseClientGeneratedId } from "@/lib/api/envelope";
import { readJsonBody } from "@/lib/api/request";
import { COMPOSER_MAY_CALL, composerMayCall, withApiKey } from "@/lib/api/with-api-key";
import { createInvoiceResponse, INVOICE_LIST_PARAMETERS, invoiceCsvListResponse, invoiceListResponse, acceptsCsv } from "@/lib/api/invoice-responses";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { startCreatedInvoice } from "@/lib/processing/after-create";
import { createSavedCardCharge, findRequestedSavedCard } from "@/lib/processing/saved-cards";

/** Spec 4.1: create a payment invoice. */
export const POST = withApiKey(async ({ request, merchant, db, requestId, testOnly, keyMode }) => {
  const body = await readJsonBody(request, { exactNumbersAt: [["data", "attributes", "amount"]] });
  refuseClientGeneratedId(body);
  // A saved card (data.relationships.payment_method) is charged at once, its provider's connections only.
  const savedCard = await findRequestedSavedCard(db, merchant.id, body, keyMode);
  if (savedCard.kind === "invalid") return createInvoiceResponse({ kind: "invalid", problems: savedCard.problems }, publicBaseUrl());
  if (savedCard.kind === "found")
    return createInvoiceResponse(await createSavedCardCharge(db, merchant, body, savedCard.method, { requestId, testOnly, keyMode }), publicBaseUrl());
  const result = await createInvoice(db, merchant, "payment", body, { requestId, testOnly, keyMode });
  return createInvoiceResponse(await startCreatedInvoice(db, result), publicBaseUrl());
}, composerMayCall("invoices.compose"));

/** The merchant's payment invoices, newest first, with filters and cursor pagination. */
export const GET = withApiKey(
  async ({ request, merchant, db, keyMode }) =>
    // Accept: text/csv: the same filters as CSV, every page (lib/invoices/export); a key sees its own mode only.
    acceptsCsv(request)
      ? invoiceCsvListResponse(db, merchant.id, "payment", request, keyMode)
      : invoiceListResponse(db, merchant.id, "payment", request, keyMode),
  { ...COMPOSER_MAY_CALL, query: INVOICE_LIST_PARAMETERS },
);

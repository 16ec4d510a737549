import { publicBaseUrl } from "@/lib/config";
import { refuseClientGeneratedId } from "@/lib/api/envelope";
import { readJsonBody } from "@/lib/api/request";
import { COMPOSER_MAY_CALL, composerMayCall, withApiKey } from "@/lib/api/with-api-key";
import { createInvoiceResponse, INVOICE_LIST_PARAMETERS, invoiceCsvListResponse, invoiceListResponse, acceptsCsv } from "@/lib/api/invoice-responses";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { startCreatedInvoice } from "@/lib/processing/after-create";

/** Spec 4.2: create a payout invoice. */
export const POST = withApiKey(async ({ request, merchant, db, requestId, testOnly, keyMode }) => {
  const body = await readJsonBody(request, { exactNumbersAt: [["data", "attributes", "amount"]] });
  refuseClientGeneratedId(body);
  const result = await createInvoice(db, merchant, "payout", body, { requestId, testOnly, keyMode });
  return createInvoiceResponse(await startCreatedInvoice(db, result), publicBaseUrl());
}, composerMayCall("invoices.compose"));

/** The merchant's payout invoices, newest first, with filters and cursor pagination. */
export const GET = withApiKey(
  async ({ request, merchant, db, keyMode }) =>
    // Accept: text/csv: the same filters as CSV, every page (lib/invoices/export); a key sees its own mode only.
    acceptsCsv(request)
      ? invoiceCsvListResponse(db, merchant.id, "payout", request, keyMode)
      : invoiceListResponse(db, merchant.id, "payout", request, keyMode),
  { ...COMPOSER_MAY_CALL, query: INVOICE_LIST_PARAMETERS },
);

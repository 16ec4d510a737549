import { readJsonBody } from "@/lib/api/request";
import { COMPOSER_MAY_CALL, withApiKey } from "@/lib/api/with-api-key";
import { baseUrlOf, createInvoiceResponse, invoiceListResponse } from "@/lib/api/invoice-responses";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { startCreatedInvoice } from "@/lib/processing/after-create";

/** Spec 4.2: create a payout invoice. */
export const POST = withApiKey(async ({ request, merchant, db, requestId, testOnly }) => {
  const result = await createInvoice(db, merchant, "payout", await readJsonBody(request), { requestId, testOnly });
  return createInvoiceResponse(await startCreatedInvoice(db, result), baseUrlOf(request));
}, COMPOSER_MAY_CALL);

/** The merchant's payout invoices, newest first, with filters and cursor pagination. */
export const GET = withApiKey(async ({ request, merchant, db, requestId }) =>
  invoiceListResponse(db, merchant.id, "payout", request, requestId), COMPOSER_MAY_CALL);

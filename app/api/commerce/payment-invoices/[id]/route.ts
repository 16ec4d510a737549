import { publicBaseUrl } from "@/lib/config";
import { COMPOSER_MAY_CALL, withApiKey } from "@/lib/api/with-api-key";
import { invoiceResponse } from "@/lib/api/invoice-responses";
import { getInvoiceExpiringOverdue } from "@/lib/processing/expiry";

type Params = { id: string };

/** One of the merchant's payment invoices; another merchant's id is a 404, like an unknown one. */
export const GET = withApiKey<Params>(
  async ({ params, merchant, db, keyMode }) =>
    invoiceResponse(await getInvoiceExpiringOverdue(db, merchant.id, "payment", params.id, keyMode), "payment", params.id, publicBaseUrl()),
  COMPOSER_MAY_CALL,
);

import { PAYMENT_METHOD_LIST_PARAMETERS, paymentMethodListResponse } from "@/lib/api/payment-method-responses";
import { COMPOSER_MAY_CALL, withApiKey } from "@/lib/api/with-api-key";

/** The merchant's saved cards, newest first; a key sees its own mode only. */
export const GET = withApiKey(async ({ request, merchant, db, keyMode }) => paymentMethodListResponse(db, merchant.id, request, keyMode), {
  ...COMPOSER_MAY_CALL,
  query: PAYMENT_METHOD_LIST_PARAMETERS,
});

import { detachPaymentMethodResponse, paymentMethodResponse } from "@/lib/api/payment-method-responses";
import { COMPOSER_MAY_CALL, composerMayCall, withApiKey } from "@/lib/api/with-api-key";

type Params = { id: string };

/** One saved card of the merchant (another merchant's, or the other mode's, is 404). */
export const GET = withApiKey<Params>(
  async ({ params, merchant, db, keyMode }) => paymentMethodResponse(db, merchant.id, params.id, keyMode),
  COMPOSER_MAY_CALL,
);

/** Detaches it: 204; the provider forgets the token where its API allows; a later charge is refused (payment_method_detached). */
export const DELETE = withApiKey<Params>(
  async ({ params, merchant, db, keyMode }) => detachPaymentMethodResponse(db, merchant.id, params.id, keyMode),
  composerMayCall("cards.remove"),
);

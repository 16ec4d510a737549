import { refundResponse } from "@/lib/api/refund-responses";
import { COMPOSER_MAY_CALL, withApiKey } from "@/lib/api/with-api-key";
import { publicBaseUrl } from "@/lib/config";

type Params = { id: string };

/** One refund of the merchant (another merchant's is 404, like an unknown id). */
export const GET = withApiKey<Params>(
  async ({ params, merchant, db, keyMode }) => refundResponse(db, merchant.id, params.id, publicBaseUrl(), keyMode),
  COMPOSER_MAY_CALL,
);

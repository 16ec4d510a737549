import { attemptListResponse } from "@/lib/api/attempt-responses";
import { publicBaseUrl } from "@/lib/config";
import { COMPOSER_MAY_CALL, withApiKey } from "@/lib/api/with-api-key";

type Params = { id: string };

/** The payout invoice's attempts, oldest first, as JSON:API invoice-attempt resources. */
export const GET = withApiKey<Params>(
  async ({ params, merchant, db, keyMode }) => attemptListResponse(db, merchant.id, "payout", params.id, publicBaseUrl(), keyMode),
  COMPOSER_MAY_CALL,
);

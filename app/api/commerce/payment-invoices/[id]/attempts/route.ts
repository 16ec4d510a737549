import { attemptListResponse } from "@/lib/api/attempt-responses";
import { baseUrlOf } from "@/lib/api/invoice-responses";
import { COMPOSER_MAY_CALL, withApiKey } from "@/lib/api/with-api-key";

type Params = { id: string };

/** The payment invoice's attempts (issue 10), oldest first, as JSON:API invoice-attempt resources. */
export const GET = withApiKey<Params>(async ({ request, params, merchant, db }) =>
  attemptListResponse(db, merchant.id, "payment", params.id, baseUrlOf(request)), COMPOSER_MAY_CALL);

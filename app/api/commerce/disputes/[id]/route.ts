import { disputeResponse, visibleMode } from "@/lib/api/dispute-responses";
import { withApiKey } from "@/lib/api/with-api-key";

type Params = { id: string };

/** One dispute of the merchant (another merchant's, or the other mode's, is 404 like an unknown id). */
export const GET = withApiKey<Params>(async ({ params, merchant, db, keyMode, testOnly }) =>
  disputeResponse(db, merchant.id, params.id, visibleMode(keyMode, testOnly)),
);

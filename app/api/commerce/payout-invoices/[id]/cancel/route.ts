import { cancelPayoutResponse } from "@/lib/api/attempt-responses";
import { composerMayCall, withApiKey } from "@/lib/api/with-api-key";
import { publicBaseUrl } from "@/lib/config";

type Params = { id: string };

/** Stops a payout the provider has not completed (lib/processing/cancel-payout.ts); support credentials cancel test payouts only. */
export const POST = withApiKey<Params>(
  async ({ params, merchant, db, testOnly, keyMode }) => cancelPayoutResponse(db, merchant.id, params.id, publicBaseUrl(), { testOnly, keyMode }),
  composerMayCall("payout.cancel"),
);

import { disputeActionResponse, visibleMode } from "@/lib/api/dispute-responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiKeyActor } from "@/lib/audit/record";
import { submitDispute } from "@/lib/disputes/respond";

type Params = { id: string };

/** Sends the saved evidence to the provider, once (a repeat answers with the dispute as it is); after the deadline 409 deadline_passed. */
export const POST = withApiKey<Params>(async ({ params, merchant, db, keyId, keyMode, testOnly }) => {
  const caller = { merchantId: merchant.id, mode: visibleMode(keyMode, testOnly), by: keyId, actor: apiKeyActor(keyId) };
  return disputeActionResponse(await submitDispute(db, caller, params.id), params.id);
});

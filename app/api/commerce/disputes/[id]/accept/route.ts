import { disputeActionResponse, visibleMode } from "@/lib/api/dispute-responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiKeyActor } from "@/lib/audit/record";
import { acceptDispute } from "@/lib/disputes/respond";

type Params = { id: string };

/** Concedes the dispute, once: the disputed amount stays with the customer. */
export const POST = withApiKey<Params>(async ({ params, merchant, db, keyId, keyMode, testOnly }) => {
  const caller = { merchantId: merchant.id, mode: visibleMode(keyMode, testOnly), by: keyId, actor: apiKeyActor(keyId) };
  return disputeActionResponse(await acceptDispute(db, caller, params.id), params.id);
});

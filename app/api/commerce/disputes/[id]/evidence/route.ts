import { disputeActionResponse, visibleMode } from "@/lib/api/dispute-responses";
import { readJsonBody } from "@/lib/api/request";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiKeyActor } from "@/lib/audit/record";
import { saveEvidence } from "@/lib/disputes/respond";

type Params = { id: string };

/** Saves the dispute's evidence draft (text fields and file ids), replacing the one before; nothing is sent. */
export const POST = withApiKey<Params>(async ({ request, params, merchant, db, keyId, keyMode, testOnly }) => {
  const body = await readJsonBody(request);
  const caller = { merchantId: merchant.id, mode: visibleMode(keyMode, testOnly), by: keyId, actor: apiKeyActor(keyId) };
  return disputeActionResponse(await saveEvidence(db, caller, params.id, body), params.id);
});

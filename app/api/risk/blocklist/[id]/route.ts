import { otherMethods } from "@/lib/api/methods";
import { blocklistEntryResponse, removeBlocklistResponse } from "@/lib/api/risk-responses";
import { withApiKey } from "@/lib/api/with-api-key";

type Params = { id: string };

/** One entry of the key's mode (another merchant's, or the other mode's, is 404). */
export const GET = withApiKey<Params>(async ({ params, merchant, db, keyMode }) => blocklistEntryResponse(db, merchant.id, params.id, keyMode));

/** Removes it: 204 (audited); Pay and creates no longer match it. */
export const DELETE = withApiKey<Params>(async ({ params, merchant, db, keyId, keyMode }) =>
  removeBlocklistResponse(db, merchant.id, params.id, keyId, keyMode),
);

export const { POST, PUT, PATCH, OPTIONS } = otherMethods<Params>(["GET", "DELETE"]);

import { otherMethods } from "@/lib/api/methods";
import { addBlocklistResponse, blocklistListResponse } from "@/lib/api/risk-responses";
import { withApiKey } from "@/lib/api/with-api-key";

/** The key's mode's blocklist entries, newest first. */
export const GET = withApiKey(async ({ merchant, db, keyMode }) => blocklistListResponse(db, merchant.id, keyMode));

/** Adds a BIN, e-mail, client address or range, or customer country to the key's mode's blocklist (audited). */
export const POST = withApiKey(async ({ request, merchant, db, keyId, keyMode }) => addBlocklistResponse(db, request, merchant.id, keyId, keyMode));

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);

import { DISPUTE_LIST_PARAMETERS, disputeListResponse, visibleMode } from "@/lib/api/dispute-responses";
import { acceptsCsv } from "@/lib/api/invoice-responses";
import { withApiKey } from "@/lib/api/with-api-key";

/** The merchant's disputes of the key's mode, newest first: filters, keyset pages, and the same as CSV (Accept: text/csv). */
export const GET = withApiKey(
  async ({ request, merchant, db, keyMode, testOnly }) => disputeListResponse(db, merchant.id, request, visibleMode(keyMode, testOnly), acceptsCsv(request)),
  { query: DISPUTE_LIST_PARAMETERS },
);

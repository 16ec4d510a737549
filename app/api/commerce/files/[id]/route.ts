import { fileResponse, visibleMode } from "@/lib/api/dispute-responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { findFile } from "@/lib/disputes/files";

type Params = { id: string };

/** The file's bytes, to its merchant only (another merchant's, or the other mode's, is 404), as an attachment of its checked type. */
export const GET = withApiKey<Params>(async ({ params, merchant, db, keyMode, testOnly }) =>
  fileResponse(await findFile(db, merchant.id, params.id, visibleMode(keyMode, testOnly)), params.id),
);

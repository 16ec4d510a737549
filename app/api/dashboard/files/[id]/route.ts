import { fileResponse } from "@/lib/api/dispute-responses";
import { withSession } from "@/lib/api/with-session";
import { findFile } from "@/lib/disputes/files";

type Params = { id: string };

/** A dispute evidence file's download from the dashboard: the merchant's own only (another's is 404), as an attachment. */
export const GET = withSession<Params>(async ({ params, viewer, db }) => fileResponse(await findFile(db, viewer.merchant.id, params.id), params.id), {
  can: "invoices.read",
});

import { ApiError } from "@/lib/api/errors";
import { withSession } from "@/lib/api/with-session";
import { getDashboardInvoice } from "@/lib/invoices/read/dashboard-invoices";

/** One invoice for the detail page's live status, authenticated by the session cookie. */
export const GET = withSession<{ id: string }>(async ({ params, viewer, db }) => {
  const invoice = await getDashboardInvoice(db, viewer.merchant.id, params.id);
  if (!invoice) throw new ApiError(404, "not_found", "Not found", `No invoice ${params.id} exists for this merchant`);
  return Response.json({ data: invoice });
});

import { withSession } from "@/lib/api/with-session";
import { viewModeFromCookieHeader } from "@/lib/dashboard/view-mode";
import { listDashboardInvoices } from "@/lib/invoices/read/dashboard-invoices";
import { readDashboardListQuery } from "@/lib/invoices/read/filters";
import { timeZoneInForce } from "@/lib/time-zones";

/** The dashboard's invoice list for TanStack Query, authenticated by the session cookie. Same query as the server-rendered page, in the same Test/Live view and days of the same zone. */
export const GET = withSession(async ({ request, viewer, db }) => {
  const viewMode = viewModeFromCookieHeader(request.headers.get("cookie"));
  const { filter, invalid } = readDashboardListQuery(new URL(request.url).searchParams, { viewMode, timeZone: timeZoneInForce(viewer) });
  const page = await listDashboardInvoices(db, viewer.merchant.id, filter);
  return Response.json({ data: page, meta: { ignored: invalid } });
});

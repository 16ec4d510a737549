import { getViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { listDashboardInvoices } from "@/lib/invoices/read/dashboard-invoices";
import { readDashboardListQuery } from "@/lib/invoices/read/filters";

const NO_STORE = { "Cache-Control": "private, no-store" };

/**
 * The dashboard's invoice list for TanStack Query, authenticated by the session cookie (not an API
 * key): proxy.ts skips /api, so the handler answers 401 itself. Same query as the server-rendered page.
 */
export async function GET(request: Request): Promise<Response> {
  const viewer = await getViewer();
  if (!viewer) {
    return Response.json(
      { errors: [{ status: "401", code: "unauthorized", title: "Unauthorized", detail: "Your session has ended; sign in again." }] },
      { status: 401, headers: NO_STORE },
    );
  }
  const { filter, invalid } = readDashboardListQuery(new URL(request.url).searchParams);
  const page = await listDashboardInvoices(await getDb(), viewer.merchant.id, filter);
  return Response.json({ data: page, meta: { ignored: invalid } }, { headers: NO_STORE });
}

import { getViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { getDashboardInvoice } from "@/lib/invoices/read/dashboard-invoices";

const NO_STORE = { "Cache-Control": "private, no-store" };

function error(status: number, code: string, title: string, detail: string): Response {
  return Response.json({ errors: [{ status: String(status), code, title, detail }] }, { status, headers: NO_STORE });
}

/** One invoice for the detail page's live status, authenticated by the session cookie. */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const viewer = await getViewer();
  if (!viewer) return error(401, "unauthorized", "Unauthorized", "Your session has ended; sign in again.");
  const { id } = await params;
  const invoice = await getDashboardInvoice(await getDb(), viewer.merchant.id, id);
  if (!invoice) return error(404, "not_found", "Not found", `No invoice ${id} exists for this merchant`);
  return Response.json({ data: invoice }, { headers: NO_STORE });
}

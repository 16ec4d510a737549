import { ApiValidationError } from "@/lib/api/errors";
import { withSession } from "@/lib/api/with-session";
import { personActor, recordAudit } from "@/lib/audit/record";
import { viewModeFromCookieHeader } from "@/lib/dashboard/view-mode";
import { csvResponse, exportFileName, invoiceCsvStream } from "@/lib/invoices/export/invoice-csv";
import { readDashboardListQuery } from "@/lib/invoices/read/filters";
import { countInvoices } from "@/lib/invoices/read/list-invoices";
import { problem } from "@/lib/problems";
import { timeZoneInForce } from "@/lib/time-zones";

/**
 * The invoice list's Export CSV: the list page's filters (same parameters, same Test/Live view
 * from the cookie, the same days of the viewer's zone in force, the times written in that zone),
 * every page, streamed (lib/invoices/export). X-Total-Count carries how many rows
 * follow, for the dashboard's progress bar. A filter the page would ignore is refused here
 * instead, naming the parameter, so an export never holds more than was asked for.
 */
export const GET = withSession(
  async ({ request, viewer, db }) => {
    const viewMode = viewModeFromCookieHeader(request.headers.get("cookie"));
    const timeZone = timeZoneInForce(viewer);
    const { filter, invalid } = readDashboardListQuery(new URL(request.url).searchParams, { viewMode, timeZone });
    if (invalid.length > 0) {
      throw new ApiValidationError(
        invalid.map((name) => problem("invalid_parameter", `${name} is not a value the invoice list's filter takes`, [name])),
        { status: 400, source: "parameter" },
      );
    }
    // Every page, not the one the list shows: the export starts at the newest invoice.
    const all = { ...filter, after: undefined };
    const total = await countInvoices(db, viewer.merchant.id, all);
    const asked = [...new URL(request.url).searchParams.keys()].filter((key) => key !== "after");
    await recordAudit(db, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "export.invoices",
      summary: `${total} ${viewMode} invoice${total === 1 ? "" : "s"}${asked.length ? `, filtered by ${asked.join(", ")}` : ""}`,
    });
    return csvResponse(invoiceCsvStream(db, viewer.merchant.id, all, { timeZone }), exportFileName(viewMode), total);
  },
  { can: "export" },
);

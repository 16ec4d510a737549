import { withSession } from "@/lib/api/with-session";
import { personActor, recordAudit } from "@/lib/audit/record";
import { viewModeFromCookieHeader } from "@/lib/dashboard/view-mode";
import { readDisputePageQuery } from "@/lib/disputes/dashboard-query";
import { disputeCsvStream } from "@/lib/disputes/list";
import { csvResponse } from "@/lib/invoices/export/invoice-csv";
import { timeZoneInForce } from "@/lib/time-zones";

/** The Disputes page's Export CSV: the page's filters and Test/Live view, every page, streamed by the API's CSV (lib/disputes/list.ts). */
export const GET = withSession(
  async ({ request, viewer, db }) => {
    const mode = viewModeFromCookieHeader(request.headers.get("cookie"));
    const { filter, filters } = readDisputePageQuery(new URL(request.url).searchParams, timeZoneInForce(viewer));
    const asked = Object.keys(filters).filter((key) => key !== "after");
    await recordAudit(db, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "export.disputes",
      summary: `${mode} disputes${asked.length ? `, filtered by ${asked.join(", ")}` : ""}`,
    });
    return csvResponse(
      disputeCsvStream(db, viewer.merchant.id, { ...filter, after: undefined, mode }),
      `disputes-${mode}-${new Date().toISOString().slice(0, 10)}.csv`,
    );
  },
  { can: "export" },
);

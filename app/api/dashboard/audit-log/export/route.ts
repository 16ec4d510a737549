import { ApiValidationError } from "@/lib/api/errors";
import { withSession } from "@/lib/api/with-session";
import { auditCsvStream, auditExportFileName } from "@/lib/dashboard/audit-csv";
import { readAuditFilter } from "@/lib/audit/filters";
import { countAudit } from "@/lib/audit/read";
import { personActor, recordAudit } from "@/lib/audit/record";
import { csvResponse } from "@/lib/invoices/export/invoice-csv";
import { problem } from "@/lib/problems";
import { timeZoneInForce } from "@/lib/time-zones";

/**
 * The Audit log page's Export CSV: the page's filter (same parameters), every page, streamed
 * (lib/dashboard/audit-csv.ts). A filter value the page would ignore is refused here, naming the parameter,
 * so an export never holds more than was asked for. The export itself is recorded first.
 */
export const GET = withSession(
  async ({ request, viewer, db }) => {
    const params = Object.fromEntries(new URL(request.url).searchParams);
    const { filter, errors } = readAuditFilter(params);
    const invalid = Object.keys(errors);
    if (invalid.length > 0) {
      throw new ApiValidationError(
        invalid.map((name) => problem("invalid_parameter", `${name}: ${errors[name as keyof typeof errors]}`, [name])),
        { status: 400, source: "parameter" },
      );
    }
    const all = { ...filter, page: undefined };
    const described = Object.entries(all)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${value}`);
    await recordAudit(db, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "export.audit_log",
      summary: described.length ? `filtered by ${described.join(", ")}` : "everything",
    });
    const timeZone = timeZoneInForce(viewer);
    const total = await countAudit(db, viewer.merchant.id, all, timeZone);
    return csvResponse(auditCsvStream(db, viewer.merchant.id, all, { timeZone }), auditExportFileName(), total);
  },
  { can: "audit.read" },
);

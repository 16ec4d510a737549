import type { Db } from "@/lib/db/client";
import { csvHeader, csvLine, type CsvColumn } from "@/lib/invoices/export/csv";
import { UTF8_BOM } from "@/lib/invoices/export/invoice-csv";
import { logger } from "@/lib/logger";
import { getMerchantTimeZone } from "@/lib/merchants/settings";
import { isoInTimeZone } from "@/lib/time-zones";
import { describeAuditAction } from "@/lib/audit/actions";
import type { AuditFilter } from "@/lib/audit/filters";
import { auditBatch, type AuditEntry } from "@/lib/audit/read";

/**
 * The Audit log page's Export CSV: every entry its filter selects (all pages), newest first, in
 * keyset batches as the client reads them. The invoice export's CSV rules (lib/invoices/export/csv.ts:
 * RFC 4180, formula-injection escaping, a UTF-8 byte order mark first) and times in ISO 8601 with
 * the merchant's time-zone offset. Never a secret: the log holds none.
 */
const AUDIT_EXPORT_BATCH = 1000;

type Row = AuditEntry & { timeZone: string };

const AUDIT_CSV_COLUMNS: readonly CsvColumn<Row>[] = [
  { header: "time", value: (row) => isoInTimeZone(row.createdAt, row.timeZone) },
  { header: "who_type", value: (row) => row.actorType },
  { header: "who_id", value: (row) => row.actorId },
  { header: "who", value: (row) => row.actorLabel },
  { header: "action", value: (row) => row.action },
  { header: "what", value: (row) => describeAuditAction(row.action) },
  { header: "summary", value: (row) => row.summary },
  { header: "changed", value: (row) => row.changes.join(" ") },
  { header: "target_type", value: (row) => row.targetType },
  { header: "target_id", value: (row) => row.targetId },
];

/**
 * `options.timeZone`: the zone whose days the filter names and whose offset the times carry (the
 * viewer's zone in force); the merchant's zone when not given.
 */
export function auditCsvStream(
  db: Db,
  merchantId: string,
  filter: AuditFilter,
  options: { timeZone?: string; batchSize?: number } = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batchSize = options.batchSize ?? AUDIT_EXPORT_BATCH;
  let after: { createdAt: Date; id: string } | undefined;
  let timeZone: string | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!timeZone) {
            timeZone = options.timeZone ?? (await getMerchantTimeZone(db, merchantId));
            controller.enqueue(encoder.encode(`${UTF8_BOM}${csvHeader(AUDIT_CSV_COLUMNS)}`));
            return;
          }
          const zone = timeZone;
          const batch = await auditBatch(db, merchantId, filter, after, batchSize, zone);
          if (batch.length) controller.enqueue(encoder.encode(batch.map((entry) => csvLine(AUDIT_CSV_COLUMNS, { ...entry, timeZone: zone })).join("")));
          const last = batch.at(-1);
          if (batch.length === batchSize && last) after = { createdAt: last.createdAt, id: last.id };
          else controller.close();
        } catch (error) {
          logger.error("audit export failed", { merchantId, error: error instanceof Error ? error.message : "unknown" });
          controller.error(error);
        }
      },
    },
    { highWaterMark: 0 },
  );
}

/** `audit-log-2026-12-06.csv`. */
export function auditExportFileName(at = new Date()): string {
  return `audit-log-${at.toISOString().slice(0, 10)}.csv`;
}

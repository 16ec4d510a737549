import "server-only";
import { and, asc, count, desc, eq, inArray, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { DISPUTE_STATUSES, OPEN_DISPUTE_STATUSES } from "@/lib/db/enums";
import { connections, disputes } from "@/lib/db/schema";
import { EARLIEST, LATEST, parseIsoInstant } from "@/lib/dates";
import { CONNECTION_ID, DISPUTE_ID, INVOICE_ID } from "@/lib/ids/patterns";
import { csvHeader, csvLine, type CsvColumn } from "@/lib/invoices/export/csv";
import { UTF8_BOM } from "@/lib/invoices/export/invoice-csv";
import { logger } from "@/lib/logger";
import { problem, type Problem, type Result } from "@/lib/problems";
import type { Mode } from "@/lib/providers";
import type { DisputeRow } from "./store";

/**
 * The dispute list (`GET /api/commerce/disputes`): the merchant's disputes in one mode, newest
 * first, in keyset pages on (created_at, id), filtered by status (or `open`), connection, invoice
 * and evidence deadline; the same filter as CSV, every page, read in batches.
 */

const DISPUTE_PAGE_SIZE_DEFAULT = 20;
const DISPUTE_PAGE_SIZE_MAX = 100;

/** The list's query parameters, with their words for the OpenAPI document. */
export const disputeListQuerySchema = z.object({
  "filter[status]": z
    .enum([...DISPUTE_STATUSES, "open"])
    .optional()
    .meta({ description: "Only disputes in this status; open: needs_response or under_review" }),
  "filter[connection]": z
    .string()
    .regex(CONNECTION_ID, "must be a connection id (conn_…)")
    .optional()
    .meta({ description: "Only the disputes of this connection" }),
  "filter[invoice]": z
    .string()
    .regex(INVOICE_ID, "must be a payment invoice id (cpi_…)")
    .optional()
    .meta({ description: "Only the disputes of this payment invoice" }),
  "filter[due_before]": z.iso.datetime().optional().meta({ description: "Only disputes whose evidence is due before this instant (ISO 8601 UTC)" }),
  "page[size]": z.coerce
    .number()
    .int()
    .min(1)
    .max(DISPUTE_PAGE_SIZE_MAX)
    .default(DISPUTE_PAGE_SIZE_DEFAULT)
    .meta({ description: `Items per page, 1 to ${DISPUTE_PAGE_SIZE_MAX}` }),
  "page[after]": z.string().min(1).max(512).optional().meta({ description: "Opaque cursor from links.next" }),
});

type Cursor = { createdAt: Date; id: string };

export type DisputeListFilter = {
  mode?: Mode;
  status?: (typeof DISPUTE_STATUSES)[number] | "open";
  connectionId?: string;
  invoiceId?: string;
  dueBefore?: Date;
  after?: Cursor;
  pageSize: number;
};

function encodeDisputeCursor(row: Pick<DisputeRow, "createdAt" | "id">): string {
  return Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString("base64url");
}

function decodeCursor(value: string): Cursor | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [at, id] = parsed as unknown[];
    const createdAt = typeof at === "string" ? parseIsoInstant(at) : undefined;
    if (!createdAt || typeof id !== "string" || !DISPUTE_ID.test(id)) return undefined;
    return { createdAt, id };
  } catch {
    return undefined;
  }
}

const KNOWN = Object.keys(disputeListQuerySchema.shape);

/** Reads the API's query, every problem at once, each naming its parameter; unknown filter[…]/page[…] are refused. */
export function readDisputeListQuery(params: URLSearchParams): Result<Omit<DisputeListFilter, "mode">> {
  const problems: Problem[] = [];
  for (const name of new Set(params.keys())) {
    if (!KNOWN.includes(name)) problems.push(problem("unknown_parameter", `Unknown parameter ${name}; use one of ${KNOWN.join(", ")}`, [name]));
  }
  for (const [name, value] of params) {
    if (value.includes("\u0000")) problems.push(problem("invalid_parameter", `${name} must not contain the NUL character`, [name]));
  }
  if (problems.length > 0) return { ok: false, problems };
  const parsed = disputeListQuerySchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => problem("invalid_parameter", `${String(issue.path[0])} ${issue.message}`, [String(issue.path[0] ?? "")])),
    };
  }
  const query = parsed.data;
  const after = query["page[after]"] === undefined ? undefined : decodeCursor(query["page[after]"]);
  if (query["page[after]"] !== undefined && !after)
    problems.push(problem("invalid_parameter", "page[after] is not a cursor this list gave (use links.next)", ["page[after]"]));
  const dueBefore = query["filter[due_before]"] === undefined ? undefined : new Date(query["filter[due_before]"]);
  if (dueBefore && (dueBefore < EARLIEST || dueBefore > LATEST))
    problems.push(problem("invalid_parameter", "filter[due_before] must lie between 1970 and 9999", ["filter[due_before]"]));
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      status: query["filter[status]"],
      connectionId: query["filter[connection]"],
      invoiceId: query["filter[invoice]"],
      dueBefore,
      after,
      pageSize: query["page[size]"],
    },
  };
}

function conditions(merchantId: string, filter: DisputeListFilter): SQL[] {
  const where: SQL[] = [eq(disputes.merchantId, merchantId)];
  if (filter.mode) where.push(eq(disputes.testMode, filter.mode === "test"));
  if (filter.status === "open") where.push(inArray(disputes.status, [...OPEN_DISPUTE_STATUSES]));
  else if (filter.status) where.push(eq(disputes.status, filter.status));
  if (filter.connectionId) where.push(eq(disputes.connectionId, filter.connectionId));
  if (filter.invoiceId) where.push(eq(disputes.invoiceId, filter.invoiceId));
  if (filter.dueBefore) where.push(lt(disputes.evidenceDueBy, filter.dueBefore));
  if (filter.after) {
    where.push(or(lt(disputes.createdAt, filter.after.createdAt), and(eq(disputes.createdAt, filter.after.createdAt), lt(disputes.id, filter.after.id)))!);
  }
  return where;
}

/** One page, newest first, and the cursor of the next when there is one. */
export async function listDisputes(db: Db, merchantId: string, filter: DisputeListFilter): Promise<{ disputes: DisputeRow[]; nextCursor: string | null }> {
  const rows = await db
    .select()
    .from(disputes)
    .where(and(...conditions(merchantId, filter)))
    .orderBy(desc(disputes.createdAt), desc(disputes.id))
    .limit(filter.pageSize + 1);
  const page = rows.slice(0, filter.pageSize);
  const last = page.at(-1);
  return { disputes: page, nextCursor: rows.length > filter.pageSize && last ? encodeDisputeCursor(last) : null };
}

/** How many disputes of the mode need the merchant's response: one count on the open disputes' partial index (the navigation's number). */
export async function countDisputesNeedingResponse(db: Db, merchantId: string, mode: Mode): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(disputes)
    .where(and(eq(disputes.merchantId, merchantId), eq(disputes.testMode, mode === "test"), inArray(disputes.status, ["needs_response"])));
  return Number(row?.n ?? 0);
}

const OPEN_SHOWN_MAX = 50;

/** The Disputes page's first section: the mode's open disputes, the nearest deadline first (the open disputes' partial index). */
export async function listOpenDisputesByDeadline(db: Db, merchantId: string, mode: Mode): Promise<DisputeRow[]> {
  return db
    .select()
    .from(disputes)
    .where(and(eq(disputes.merchantId, merchantId), eq(disputes.testMode, mode === "test"), inArray(disputes.status, [...OPEN_DISPUTE_STATUSES])))
    .orderBy(asc(disputes.evidenceDueBy), asc(disputes.id))
    .limit(OPEN_SHOWN_MAX);
}

type CsvRow = DisputeRow & { connectionLabel: string | null; provider: string | null };

const DISPUTE_CSV_COLUMNS: readonly CsvColumn<CsvRow>[] = [
  { header: "id", value: (row) => row.id },
  { header: "status", value: (row) => row.status },
  { header: "amount", value: (row) => row.amount, numeric: true },
  { header: "currency", value: (row) => row.currency },
  { header: "reason", value: (row) => row.reason },
  { header: "provider_reason", value: (row) => row.providerReason },
  { header: "evidence_due_by", value: (row) => row.evidenceDueBy.toISOString() },
  { header: "invoice_id", value: (row) => row.invoiceId },
  { header: "connection_id", value: (row) => row.connectionId },
  { header: "connection_label", value: (row) => row.connectionLabel },
  { header: "provider", value: (row) => row.provider },
  { header: "provider_reference", value: (row) => row.providerReference },
  { header: "test_mode", value: (row) => row.testMode },
  { header: "submitted", value: (row) => row.submittedAt?.toISOString() ?? null },
  { header: "accepted", value: (row) => row.acceptedAt?.toISOString() ?? null },
  { header: "closed", value: (row) => row.closedAt?.toISOString() ?? null },
  { header: "created", value: (row) => row.createdAt.toISOString() },
];

const EXPORT_BATCH = 1000;

/** Every dispute the filter selects (from its cursor on), as CSV, read in keyset batches as the client takes them. */
export function disputeCsvStream(db: Db, merchantId: string, filter: DisputeListFilter, batchSize = EXPORT_BATCH): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = filter.after;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(`${UTF8_BOM}${csvHeader(DISPUTE_CSV_COLUMNS)}`));
          return;
        }
        try {
          const rows = await db
            .select({ dispute: disputes, connectionLabel: connections.label, provider: connections.provider })
            .from(disputes)
            .leftJoin(connections, eq(connections.id, disputes.connectionId))
            .where(and(...conditions(merchantId, { ...filter, after, pageSize: batchSize })))
            .orderBy(desc(disputes.createdAt), desc(disputes.id))
            .limit(batchSize + 1);
          const batch = rows.slice(0, batchSize);
          const text = batch
            .map((row) => csvLine(DISPUTE_CSV_COLUMNS, { ...row.dispute, connectionLabel: row.connectionLabel, provider: row.provider }))
            .join("");
          if (text) controller.enqueue(encoder.encode(text));
          const last = batch.at(-1);
          if (rows.length > batchSize && last) after = { createdAt: last.dispute.createdAt, id: last.dispute.id };
          else controller.close();
        } catch (error) {
          logger.error("dispute export failed", { merchantId, error: error instanceof Error ? error.message : "unknown" });
          controller.error(error);
        }
      },
    },
    { highWaterMark: 0 },
  );
}

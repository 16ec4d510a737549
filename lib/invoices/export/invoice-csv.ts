import { and, desc, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { invoiceAttempts } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { formatMinor } from "@/lib/money";
import { decodeCursor } from "../read/cursor";
import type { InvoiceListFilter } from "../read/filters";
import type { InvoiceWithConnection } from "../read/invoice-select";
import { listInvoices } from "../read/list-invoices";
import { csvHeader, csvLine, type CsvColumn } from "./csv";

/**
 * The invoice list as CSV, for the dashboard's Export and the API's `Accept: text/csv`: every
 * invoice the filter selects (all pages), newest first, read in keyset batches of EXPORT_BATCH
 * invoices as the client takes them (a pull stream: the next batch is read only once the last one
 * was consumed), so memory holds one batch whatever the number of rows. Never a card number (last
 * four only), never a credential.
 */

export const EXPORT_BATCH = 1000;

export type ExportRow = InvoiceWithConnection & { providerReference: string | null };

const customerText = (row: ExportRow, key: "email" | "name") => {
  const value = row.resolvedCustomer[key];
  return typeof value === "string" ? value.trim() : null;
};

export const INVOICE_CSV_COLUMNS: readonly CsvColumn<ExportRow>[] = [
  { header: "id", value: (row) => row.id },
  { header: "type", value: (row) => row.direction },
  { header: "status", value: (row) => row.status },
  { header: "resolution", value: (row) => row.resolution },
  // Exact decimals in the currency's minor units (lib/money.ts), never floating point.
  { header: "amount", value: (row) => formatMinor(row.amountMinor, row.currency), numeric: true },
  { header: "currency", value: (row) => row.currency },
  { header: "processed_amount", value: (row) => (row.processedAmountMinor === null ? null : formatMinor(row.processedAmountMinor, row.currency)), numeric: true },
  { header: "refunded_amount", value: (row) => formatMinor(row.refundedAmountMinor, row.currency), numeric: true },
  { header: "reference_id", value: (row) => row.referenceId },
  { header: "service", value: (row) => row.service },
  { header: "mode", value: (row) => (row.testMode ? "test" : "live") },
  { header: "customer_email", value: (row) => customerText(row, "email") },
  { header: "customer_name", value: (row) => customerText(row, "name") },
  { header: "provider", value: (row) => row.connection?.provider ?? null },
  { header: "connection_id", value: (row) => row.connectionId },
  { header: "connection_label", value: (row) => row.connection?.label ?? null },
  { header: "provider_reference", value: (row) => row.providerReference },
  { header: "card_last_four", value: (row) => row.cardLastFour },
  { header: "created_at", value: (row) => row.createdAt.toISOString() },
  { header: "updated_at", value: (row) => row.updatedAt.toISOString() },
];

/** The provider's reference of each invoice's latest attempt that has one, in one query per batch. */
async function providerReferences(db: Db, invoiceIds: string[]): Promise<Map<string, string>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([invoiceAttempts.invoiceId], { invoiceId: invoiceAttempts.invoiceId, reference: invoiceAttempts.providerReference })
    .from(invoiceAttempts)
    .where(and(inArray(invoiceAttempts.invoiceId, invoiceIds), isNotNull(invoiceAttempts.providerReference)))
    .orderBy(invoiceAttempts.invoiceId, desc(invoiceAttempts.seq));
  return new Map(rows.map((row) => [row.invoiceId, row.reference!]));
}

export type ExportOptions = {
  batchSize?: number;
  /** Told of each batch read (tests count the queries). */
  onBatch?: (rows: number) => void;
};

/** The CSV of every invoice the filter selects (from its cursor on, if any), streamed batch by batch. */
export function invoiceCsvStream(db: Db, merchantId: string, filter: InvoiceListFilter, options: ExportOptions = {}): ReadableStream<Uint8Array> {
  const batchSize = options.batchSize ?? EXPORT_BATCH;
  const encoder = new TextEncoder();
  let after = filter.after;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(csvHeader(INVOICE_CSV_COLUMNS)));
          return;
        }
        try {
          const page = await listInvoices(db, merchantId, { ...filter, after, pageSize: batchSize });
          options.onBatch?.(page.invoices.length);
          const references = await providerReferences(db, page.invoices.map((row) => row.id));
          const text = page.invoices.map((row) => csvLine(INVOICE_CSV_COLUMNS, { ...row, providerReference: references.get(row.id) ?? null })).join("");
          if (text) controller.enqueue(encoder.encode(text));
          if (page.nextCursor) after = decodeCursor(page.nextCursor);
          else controller.close();
        } catch (error) {
          // Headers are gone already: the client sees the download fail rather than a short file taken for whole.
          logger.error("invoice export failed", { merchantId, error: error instanceof Error ? error.message : "unknown" });
          controller.error(error);
        }
      },
    },
    { highWaterMark: 0 },
  );
}

/** `invoices-live-2026-11-29.csv`: what and when, for the download's name. */
export function exportFileName(scope: string, at = new Date()): string {
  return `invoices-${scope}-${at.toISOString().slice(0, 10)}.csv`;
}

/** The CSV answer: an attachment, never cached, with the row count when known (the dashboard's progress). */
export function csvResponse(body: ReadableStream<Uint8Array>, fileName: string, total?: number): Response {
  const headers = new Headers({
    "Content-Type": "text/csv; charset=utf-8; header=present",
    "Content-Disposition": `attachment; filename="${fileName}"`,
    "X-Content-Type-Options": "nosniff",
  });
  if (total !== undefined) headers.set("X-Total-Count", String(total));
  return new Response(body, { status: 200, headers });
}

import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connections, invoiceAttempts, invoices } from "@/lib/db/schema";
import type { ThreeDsResult } from "@/lib/db/enums";
import { logger } from "@/lib/logger";
import { summarizeThreeDs } from "@/lib/invoices/three-ds";
import { getMerchantTimeZone } from "@/lib/merchants/settings";
import { isoInTimeZone } from "@/lib/time-zones";
import { formatMinor } from "@/lib/money";
import { streamedResponse } from "@/lib/api/responses";
import type { InvoiceListFilter } from "../read/filters";
import { pageIds, sortsByCodePoint, type ListOptions } from "../read/list-invoices";
import { csvHeader, csvLine, type CsvColumn } from "./csv";

/** Leads the file (see the stream below for why). */
export const UTF8_BOM = "\uFEFF";

/**
 * The invoice list as CSV, for the dashboard's Export and the API's `Accept: text/csv`: every
 * invoice the filter selects (all pages), newest first, read in keyset batches of EXPORT_BATCH
 * invoices as the client takes them (a pull stream: the next batch is read only once the last one
 * was consumed), so memory holds one batch whatever the number of rows. Never a card number (last
 * four only), never a credential.
 */

const EXPORT_BATCH = 1000;

/** What a CSV row shows, read in one statement per batch: no credential, no card number, no JSON column whole. */
export type ExportRow = {
  id: string;
  direction: string;
  status: string;
  resolution: string | null;
  amountMinor: bigint;
  currency: string;
  processedAmountMinor: bigint | null;
  refundedAmountMinor: bigint;
  referenceId: string;
  service: string;
  testMode: boolean;
  email: unknown;
  name: unknown;
  provider: string | null;
  connectionId: string | null;
  connectionLabel: string | null;
  providerReference: string | null;
  cardLastFour: string | null;
  cardBrand: string | null;
  cardCountry: string | null;
  /** Where the e-mail and name came from (resolveCustomer's sources); null before sources were recorded. */
  emailSource: string | null;
  nameSource: string | null;
  /** The latest attempt's 3-D Secure step. */
  threeDs: ThreeDsResult | null;
  createdAt: Date;
  updatedAt: Date;
  /** The zone the times are written in (with its offset): the viewer's in force, or the merchant's. */
  timeZone: string;
};

const text = (value: unknown) => (typeof value === "string" ? value.trim() : null);

/** A payment the hosted page took a card for (a payout's last four is its destination card's). */
const paidByCard = (row: ExportRow) => row.direction === "payment" && row.cardLastFour !== null;

export const INVOICE_CSV_COLUMNS: readonly CsvColumn<ExportRow>[] = [
  { header: "id", value: (row) => row.id },
  { header: "type", value: (row) => row.direction },
  { header: "status", value: (row) => row.status },
  { header: "resolution", value: (row) => row.resolution },
  // Exact decimals in the currency's minor units (lib/money.ts), never floating point.
  { header: "amount", value: (row) => formatMinor(row.amountMinor, row.currency), numeric: true },
  { header: "currency", value: (row) => row.currency },
  {
    header: "processed_amount",
    value: (row) => (row.processedAmountMinor === null ? null : formatMinor(row.processedAmountMinor, row.currency)),
    numeric: true,
  },
  { header: "refunded_amount", value: (row) => formatMinor(row.refundedAmountMinor, row.currency), numeric: true },
  { header: "reference_id", value: (row) => row.referenceId },
  { header: "service", value: (row) => row.service },
  { header: "mode", value: (row) => (row.testMode ? "test" : "live") },
  { header: "customer_email", value: (row) => text(row.email) },
  { header: "customer_name", value: (row) => text(row.name) },
  { header: "provider", value: (row) => row.provider },
  { header: "connection_id", value: (row) => row.connectionId },
  { header: "connection_label", value: (row) => row.connectionLabel },
  { header: "provider_reference", value: (row) => row.providerReference },
  { header: "card_last_four", value: (row) => row.cardLastFour },
  // ISO 8601 in the merchant's time zone with its offset: the same instant a UTC time names, read as the merchant's clock.
  { header: "created_at", value: (row) => isoInTimeZone(row.createdAt, row.timeZone) },
  { header: "updated_at", value: (row) => isoInTimeZone(row.updatedAt, row.timeZone) },
  // Added after the columns above, so a reader that goes by position keeps working.
  { header: "customer_email_source", value: (row) => row.emailSource },
  { header: "customer_name_source", value: (row) => row.nameSource },
  { header: "card_brand", value: (row) => row.cardBrand },
  { header: "card_country", value: (row) => row.cardCountry },
  { header: "three_ds", value: (row) => (paidByCard(row) ? summarizeThreeDs(row.threeDs).result : null) },
  { header: "liability_shift", value: (row) => (paidByCard(row) ? (summarizeThreeDs(row.threeDs).liabilityShift ? "yes" : "no") : null) },
];

/**
 * One batch: the list's page of ids (the same branches, index order and keyset as the list), with
 * the columns the CSV shows, the routed connection's provider and label, and the provider's
 * reference of the latest attempt that has one.
 */
function batchQuery(db: Db, merchantId: string, filter: InvoiceListFilter, options: ListOptions) {
  const providerReference = sql<string | null>`(select ${invoiceAttempts.providerReference} from ${invoiceAttempts}
    where ${invoiceAttempts.invoiceId} = ${invoices.id} and ${invoiceAttempts.providerReference} is not null
    order by ${invoiceAttempts.seq} desc limit 1)`;
  const threeDs = sql<ThreeDsResult | null>`(select ${invoiceAttempts.threeDs} from ${invoiceAttempts}
    where ${invoiceAttempts.invoiceId} = ${invoices.id} order by ${invoiceAttempts.seq} desc limit 1)`;
  return db
    .select({
      id: invoices.id,
      direction: invoices.direction,
      status: invoices.status,
      resolution: invoices.resolution,
      amountMinor: invoices.amountMinor,
      currency: invoices.currency,
      processedAmountMinor: invoices.processedAmountMinor,
      refundedAmountMinor: invoices.refundedAmountMinor,
      referenceId: invoices.referenceId,
      service: invoices.service,
      testMode: invoices.testMode,
      email: sql<unknown>`${invoices.resolvedCustomer} -> 'email'`,
      name: sql<unknown>`${invoices.resolvedCustomer} -> 'name'`,
      provider: connections.provider,
      connectionId: invoices.connectionId,
      connectionLabel: connections.label,
      providerReference,
      cardLastFour: invoices.cardLastFour,
      cardBrand: invoices.cardBrand,
      cardCountry: invoices.cardCountry,
      emailSource: sql<string | null>`${invoices.resolvedCustomerSources} -> 'customer.email' ->> 'source'`,
      nameSource: sql<string | null>`${invoices.resolvedCustomerSources} -> 'customer.name' ->> 'source'`,
      threeDs,
      createdAt: invoices.createdAt,
      updatedAt: invoices.updatedAt,
    })
    .from(invoices)
    .leftJoin(connections, and(eq(connections.id, invoices.connectionId), eq(connections.merchantId, merchantId)))
    .where(and(eq(invoices.merchantId, merchantId), sql`${invoices.id} in (${pageIds(db, merchantId, filter, options)})`))
    .orderBy(desc(invoices.createdAt), desc(invoices.id));
}

export type ExportOptions = {
  batchSize?: number;
  /** Told of each batch read (tests count the queries). */
  onBatch?: (rows: number) => void;
  /** The zone the times are written in: the dashboard's, the viewer's zone in force; by default the merchant's (an API key has no person). */
  timeZone?: string;
};

/** The CSV of every invoice the filter selects (from its cursor on, if any), streamed batch by batch. */
export function invoiceCsvStream(db: Db, merchantId: string, filter: InvoiceListFilter, options: ExportOptions = {}): ReadableStream<Uint8Array> {
  const batchSize = options.batchSize ?? EXPORT_BATCH;
  const encoder = new TextEncoder();
  let after = filter.after;
  let started = false;
  let codePointOrder = false;
  let timeZone = "UTC";
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          codePointOrder = filter.reference?.match === "prefix" && (await sortsByCodePoint(db));
          timeZone = options.timeZone ?? (await getMerchantTimeZone(db, merchantId));
          // A UTF-8 byte order mark first: without it spreadsheet programs read the file in the
          // system's legacy code page and "Müller" becomes "MÃ¼ller". CSV readers skip it.
          controller.enqueue(encoder.encode(`${UTF8_BOM}${csvHeader(INVOICE_CSV_COLUMNS)}`));
          return;
        }
        try {
          const rows = await batchQuery(db, merchantId, { ...filter, after, pageSize: batchSize }, { codePointOrder });
          const batch = rows.slice(0, batchSize);
          options.onBatch?.(batch.length);
          const text = batch.map((row) => csvLine(INVOICE_CSV_COLUMNS, { ...row, timeZone })).join("");
          if (text) controller.enqueue(encoder.encode(text));
          const last = batch.at(-1);
          if (rows.length > batchSize && last) after = { createdAt: last.createdAt.toISOString(), id: last.id };
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
  return streamedResponse(new Response(body, { status: 200, headers }));
}

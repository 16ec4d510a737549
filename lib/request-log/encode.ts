import type { requestLog } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { redactText } from "@/lib/redaction/text";

/**
 * The request log's rows, made from what withApiKey saw: bodies redacted (lib/redaction), cut at
 * 16 kB, the invoice or refund the request touched, and a slice of rows encoded as the database
 * takes it in one statement. Pure and self-contained, so it runs where lib/request-log/writer.ts
 * puts it: in the encoder thread (./encode-worker.mjs), off the thread that answers requests, or
 * in that thread when no encoder thread could start.
 */

/** Bodies kept: 16 kB, after redaction. */
const BODY_LIMIT_BYTES = 16 * 1024;
/**
 * What is kept of a body before redaction, which reads a JSON body whole: the API's largest body
 * (64 KiB). It is cut to BODY_LIMIT_BYTES after.
 */
export const RAW_BODY_LIMIT = 64 * 1024;

/** One answered request with its bodies read: text, or the bytes the lean path read. */
export type SettledRequest = {
  merchantId: string;
  testMode: boolean;
  at: Date;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  apiKeyId: string;
  keyPrefix: string;
  keyLastFour: string;
  requestId: string;
  idempotencyKey: string | undefined;
  requestBody: string | Uint8Array;
  responseBody: string | Uint8Array;
};

/**
 * How a slice is written: `csv` for COPY on the embedded PGlite, `json` (an array of records) for
 * json_populate_recordset on PostgreSQL.
 */
export type SliceFormat = "csv" | "json";

/** A slice's rows as UTF-8, one after another; `ends[i]` is where row i's bytes end (for writing rows one by one). */
export type EncodedSlice = { bytes: Uint8Array<ArrayBuffer>; ends: number[] };

/** A body's text, at most RAW_BODY_LIMIT (the rest is cut after redaction anyway). */
function textOf(body: string | Uint8Array): string {
  const text = typeof body === "string" ? body : Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, RAW_BODY_LIMIT + 1)).toString("utf8");
  return text.length > RAW_BODY_LIMIT ? text.slice(0, RAW_BODY_LIMIT + 1) : text;
}

/** Text cut to `limit` bytes of UTF-8 (never inside a character). */
function cut(text: string, limit = BODY_LIMIT_BYTES): { text: string; truncated: boolean } {
  if (text.length <= limit / 4 || Buffer.byteLength(text) <= limit) return { text, truncated: false };
  const bytes = Buffer.from(text).subarray(0, limit);
  return { text: bytes.toString("utf8").replace(/\uFFFD$/, ""), truncated: true };
}

const INVOICE_ID = /\b(?:cpi|cpoi)_[A-Za-z0-9_-]{10,40}/;
const REFUND_ID = /\brf_[A-Za-z0-9_-]{10,40}/;

/** The invoice and refund a request touched: named in its path, else the one resource it answered with. */
function touched(path: string, status: number, responseBody: string): { invoiceId: string | null; refundId: string | null } {
  let invoiceId = INVOICE_ID.exec(path)?.[0] ?? null;
  let refundId = REFUND_ID.exec(path)?.[0] ?? null;
  if ((invoiceId && refundId) || status >= 300 || !responseBody.startsWith('{"data":{')) return { invoiceId, refundId };
  try {
    const data = (JSON.parse(responseBody) as { data?: { type?: unknown; id?: unknown; relationships?: { invoice?: { data?: { id?: unknown } } } } }).data;
    if ((data?.type === "payment-invoice" || data?.type === "payout-invoice") && typeof data.id === "string") invoiceId ??= data.id;
    if (data?.type === "refund" && typeof data.id === "string") {
      refundId ??= data.id;
      const invoice = data.relationships?.invoice?.data?.id;
      if (typeof invoice === "string") invoiceId ??= invoice;
    }
  } catch {
    // a cut or odd body names nothing
  }
  return { invoiceId, refundId };
}

const REFERENCE_ID = /"reference_id"\s*:\s*"((?:[^"\\]|\\.){1,255})"/;

/** PostgreSQL's text holds no NUL character (a path or body may: the bad-input suites send them): shown as U+FFFD. */
const storable = (text: string) => text.replace(/\u0000/g, "\uFFFD");

type LogRow = typeof requestLog.$inferInsert;

/** The row of one request: bodies redacted, then cut. */
function rowOf(entry: SettledRequest): LogRow {
  const requestText = storable(textOf(entry.requestBody));
  const responseText = storable(textOf(entry.responseBody));
  const request = cut(redactText(requestText));
  const response = cut(redactText(responseText));
  const idempotencyKey = entry.idempotencyKey === undefined ? REFERENCE_ID.exec(requestText)?.[1] : storable(entry.idempotencyKey);
  return {
    id: newId("rql"),
    merchantId: entry.merchantId,
    testMode: entry.testMode,
    createdAt: entry.at,
    method: storable(entry.method),
    path: storable(entry.path).slice(0, 500),
    status: entry.status,
    durationMs: entry.durationMs,
    apiKeyId: entry.apiKeyId,
    keyPrefix: entry.keyPrefix,
    keyLastFour: entry.keyLastFour,
    requestId: storable(entry.requestId).slice(0, 200),
    idempotencyKey: idempotencyKey === undefined ? null : redactText(idempotencyKey).slice(0, 255),
    ...touched(entry.path, entry.status, responseText),
    requestBody: request.text,
    requestTruncated: request.truncated,
    responseBody: response.text,
    responseTruncated: response.truncated,
  };
}

/** The table's columns in order, each as [the row's key, the column's name] (lib/request-log/writer.ts reads them from the schema). */
export type Columns = readonly (readonly [keyof LogRow, string])[];

const valueOf = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));

/** A CSV field: quoted text (a quoted empty field is an empty string, so no value reads as NULL or as the end of the data), or nothing for NULL. */
function csvField(value: unknown): string {
  const plain = valueOf(value);
  return plain === null ? "" : `"${String(plain).replaceAll('"', '""')}"`;
}

/** One row as the format writes it: a CSV line, or a JSON record keyed by column name. */
function encodeRow(row: LogRow, format: SliceFormat, columns: Columns): string {
  if (format === "csv") return columns.map(([key]) => csvField(row[key])).join(",");
  return JSON.stringify(Object.fromEntries(columns.map(([key, name]) => [name, valueOf(row[key])])));
}

/** A slice of requests as rows, encoded: CSV lines (each ending in a newline), or a JSON array (`[`, records split by `,`, `]`). */
export function encodeSlice(entries: readonly SettledRequest[], format: SliceFormat, columns: Columns): EncodedSlice {
  const encoder = new TextEncoder();
  const parts = entries.map((entry, n) =>
    encoder.encode(`${format === "json" ? (n === 0 ? "[" : ",") : ""}${encodeRow(rowOf(entry), format, columns)}${format === "csv" ? "\n" : ""}`),
  );
  const closing = format === "json" ? encoder.encode(entries.length === 0 ? "[]" : "]") : new Uint8Array(0);
  const bytes = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, closing.byteLength));
  const ends: number[] = [];
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
    ends.push(at);
  }
  bytes.set(closing, at);
  return { bytes, ends };
}

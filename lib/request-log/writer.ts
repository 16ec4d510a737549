import { getTableColumns, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { requestLog } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { logger } from "@/lib/logger";
import { recordRequestLogDropped } from "@/lib/metrics/record";
import { redactText } from "@/lib/redaction/text";

/**
 * The request log's write path: withApiKey hands each answered request to `logRequest`, which only
 * pushes it onto this process's buffer; a timer writes the buffer at most FLUSH_MS later in one
 * multi-row INSERT per BATCH rows, redacting the bodies then (lib/redaction), so the request never
 * waits for the log. A crash loses at most the last tenth of a second (and a slice being written);
 * never an invoice (the log is written
 * apart from every invoice's transaction). With the database away the buffer keeps its newest
 * MAX_BUFFERED entries and drops the oldest, counted (`request_log_dropped_total`) and logged.
 * server.ts's drain on SIGTERM writes what is left (`drainRequestLog`).
 *
 * Kept on globalThis: Next's bundled route modules and server.ts's lean path share one buffer.
 */

/** Bodies kept: 16 kB, after redaction. */
const BODY_LIMIT_BYTES = 16 * 1024;
/**
 * What is kept of a body before redaction, which reads a JSON body whole: the API's largest body
 * (64 KiB). It is cut to BODY_LIMIT_BYTES after.
 */
export const RAW_BODY_LIMIT = 64 * 1024;
const FLUSH_MS = 100;
/**
 * Rows per INSERT, each slice redacted just before it is written, with the event loop let go between
 * slices: a second's requests written in one statement stalled this process (and the embedded
 * database) for tens of milliseconds, which every request waiting then paid (`npm run bench:api`,
 * open loop: p99 66-71 ms with the log so written, 18-22 ms without the log).
 */
const BATCH = 20;
const MAX_BUFFERED = 5000;

/** A body as withApiKey found it: text, the bytes the lean path read, or a copy still being read. */
export type BodySource = string | Uint8Array | Promise<string | Uint8Array>;

/** One answered request, as withApiKey saw it (bodies raw). */
export type LoggedRequest = {
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
  requestBody: BodySource;
  responseBody: BodySource;
};

type Writer = {
  buffer: LoggedRequest[];
  timer: ReturnType<typeof setTimeout> | undefined;
  flushing: Promise<void> | undefined;
  dropped: number;
};

const state = globalThis as unknown as { __requestLogWriter?: Writer };

function writer(): Writer {
  state.__requestLogWriter ??= {
    buffer: [],
    timer: undefined,
    flushing: undefined,
    dropped: 0,
  };
  return state.__requestLogWriter;
}

/** A body's text, at most RAW_BODY_LIMIT (the rest is cut after redaction anyway). */
async function textOf(source: BodySource): Promise<string> {
  const body = await source;
  const text = typeof body === "string" ? body : Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, RAW_BODY_LIMIT + 1)).toString("utf8");
  return text.length > RAW_BODY_LIMIT ? text.slice(0, RAW_BODY_LIMIT + 1) : text;
}

function dropOldest(w: Writer): void {
  const over = w.buffer.length - MAX_BUFFERED;
  if (over <= 0) return;
  w.buffer.splice(0, over);
  w.dropped += over;
  recordRequestLogDropped(over);
}

/** Queues one request for the log; never throws, never waits. */
export function logRequest(entry: LoggedRequest): void {
  const w = writer();
  w.buffer.push(entry);
  dropOldest(w);
  if (!w.timer && !w.flushing) {
    w.timer = setTimeout(() => void flushRequestLog(), FLUSH_MS);
    w.timer.unref?.();
  }
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

/** The row of one request: bodies redacted, then cut. */
async function rowOf(entry: LoggedRequest): Promise<typeof requestLog.$inferInsert> {
  const [requestRaw, responseRaw] = await Promise.all([textOf(entry.requestBody), textOf(entry.responseBody)]);
  const [requestText, responseText] = [storable(requestRaw), storable(responseRaw)];
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

type LogRow = typeof requestLog.$inferInsert;
const COLUMNS = Object.entries(getTableColumns(requestLog)) as [keyof LogRow, { name: string }][];

/**
 * The slice in one INSERT with one parameter, the rows as JSON (json_populate_recordset): the
 * embedded driver's cost is per parameter, and 20 rows of 19 columns were 380 of them, bodies
 * copied one by one. Every column is given, so no default is needed.
 */
async function insertRows(db: Awaited<ReturnType<typeof getDb>>, rows: readonly LogRow[]): Promise<void> {
  const records = rows.map((row) =>
    Object.fromEntries(COLUMNS.map(([key, column]) => [column.name, row[key] instanceof Date ? (row[key] as Date).toISOString() : (row[key] ?? null)])),
  );
  await db.execute(sql`insert into ${requestLog} select * from json_populate_recordset(null::${requestLog}, ${JSON.stringify(records)}::json)`);
}

/** A refusal of the row's own data (SQLSTATE class 22: a value the column cannot hold), not of the database being away. */
const isDataError = (error: unknown) => /^22/.test(String((error as { code?: unknown } | null)?.code ?? ""));

/**
 * A batch the database refused for one row's data is written row by row: the rows it takes are
 * kept, the one it refuses is dropped and counted, so one odd request never holds the log back.
 */
async function writeRowByRow(db: Awaited<ReturnType<typeof getDb>>, rows: (typeof requestLog.$inferInsert)[], w: Writer): Promise<number> {
  for (const [index, row] of rows.entries()) {
    try {
      await db.insert(requestLog).values(row);
    } catch (error) {
      // The database went away meanwhile: what is not written yet waits for the next flush.
      if (!isDataError(error)) return index;
      w.dropped += 1;
      recordRequestLogDropped(1);
      logger.warn("request log row refused", { path: row.path.slice(0, 100), error: error instanceof Error ? error.message : String(error) });
    }
  }
  return rows.length;
}

/** Lets the requests that arrived meanwhile run before the next slice. */
const letRequestsRun = () => new Promise<void>((resolve) => setImmediate(resolve));

async function writeBuffered(w: Writer): Promise<void> {
  while (w.buffer.length > 0) {
    await letRequestsRun();
    const batch = w.buffer.splice(0, BATCH);
    try {
      const db = await getDb();
      const rows = await Promise.all(batch.map(rowOf));
      try {
        await insertRows(db, rows);
      } catch (error) {
        if (!isDataError(error)) throw error;
        const written = await writeRowByRow(db, rows, w);
        if (written < rows.length) {
          w.buffer.unshift(...batch.slice(written));
          dropOldest(w);
          return;
        }
      }
    } catch (error) {
      // Kept for the next flush, newest first to go when the buffer is full.
      w.buffer.unshift(...batch);
      dropOldest(w);
      logger.warn("request log write failed", { rows: batch.length, buffered: w.buffer.length, error: error instanceof Error ? error.message : String(error) });
      return;
    }
  }
}

/** Writes what the buffer holds now (the timer's work; tests call it to see their requests at once). */
export function flushRequestLog(): Promise<void> {
  const w = writer();
  if (w.timer) clearTimeout(w.timer);
  w.timer = undefined;
  if (w.flushing) return w.flushing.then(() => flushRequestLog());
  w.flushing = writeBuffered(w).finally(() => {
    w.flushing = undefined;
    if (w.buffer.length > 0 && !w.timer) {
      w.timer = setTimeout(() => void flushRequestLog(), FLUSH_MS);
      w.timer.unref?.();
    }
  });
  return w.flushing;
}

/** On SIGTERM, after the requests in flight were answered: writes the rest (server.ts). */
export async function drainRequestLog(): Promise<void> {
  await flushRequestLog();
}

/** How many entries this process dropped since it started (the buffer was full). */
export function droppedRequestLogEntries(): number {
  return writer().dropped;
}

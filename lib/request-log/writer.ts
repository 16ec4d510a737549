import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { getTableColumns, getTableName, sql } from "drizzle-orm";
import { embeddedClientOf, getDb } from "@/lib/db/client";
import { requestLog } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { recordRequestLogDropped } from "@/lib/metrics/record";
import { encodeSlice, RAW_BODY_LIMIT, type Columns, type EncodedSlice, type SettledRequest, type SliceFormat } from "./encode";

export { RAW_BODY_LIMIT };

/**
 * The request log's write path: withApiKey hands each answered request to `logRequest`, which only
 * pushes it onto this process's buffer; a timer writes the buffer at most FLUSH_MS later, one
 * statement per BATCH rows, so the request never waits for the log. Each slice is redacted and
 * encoded (./encode.ts) in the encoder thread (./encode-worker.mjs), so the thread that answers
 * requests only hands the requests over and runs the statement (in that thread when the encoder
 * cannot start). A crash loses at most the last tenth of a second (and a slice being written);
 * never an invoice (the log is written apart from every invoice's transaction). With the database
 * away the buffer keeps its newest MAX_BUFFERED entries and drops the oldest, counted
 * (`request_log_dropped_total`) and logged. server.ts's drain on SIGTERM writes what is left
 * (`drainRequestLog`).
 *
 * Kept on globalThis: Next's bundled route modules and server.ts's lean path share one buffer.
 */

const FLUSH_MS = 100;
/**
 * Rows per statement, with the event loop let go between slices: a second's requests written in
 * one statement stalled this process (and the embedded database) for tens of milliseconds, which
 * every request waiting then paid (`npm run bench:api`, open loop: p99 66-71 ms with the log so
 * written, 18-22 ms without). Larger slices cost the app more throughput, not less
 * (`BENCH_WITHOUT_LOG=1 npm run bench:api`: 50 rows a statement 11-12 % of the app's creates, 20
 * rows 5-6 %, with the rows made in this thread).
 */
const BATCH = 20;
const MAX_BUFFERED = 5000;

/** A body as withApiKey found it: text, the bytes the lean path read, or a copy still being read. */
export type BodySource = string | Uint8Array | Promise<string | Uint8Array>;

/** One answered request, as withApiKey saw it (bodies raw). */
export type LoggedRequest = Omit<SettledRequest, "requestBody" | "responseBody"> & { requestBody: BodySource; responseBody: BodySource };

type Pending = { resolve: (slice: EncodedSlice) => void; reject: (error: Error) => void };
type EncoderThread = { worker: Worker; ready: Promise<boolean>; pending: Map<number, Pending>; next: number };

type Writer = {
  buffer: LoggedRequest[];
  timer: ReturnType<typeof setTimeout> | undefined;
  flushing: Promise<void> | undefined;
  dropped: number;
  /** The encoder thread; null once it could not start or has stopped (slices are then encoded here). */
  encoder?: EncoderThread | null;
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

const COLUMNS: Columns = Object.entries(getTableColumns(requestLog)).map(
  ([key, column]) => [key as keyof typeof requestLog.$inferInsert, column.name] as const,
);
const TABLE = getTableName(requestLog);
const COPY = `copy ${TABLE} (${COLUMNS.map(([, name]) => `"${name}"`).join(", ")}) from '/dev/blob' with (format csv)`;

/** The encoder thread, started on first use: the file is found from the project's root, as server.ts runs there. */
function encoderThread(w: Writer): EncoderThread | null {
  if (w.encoder !== undefined) return w.encoder;
  let worker: Worker;
  try {
    // Started from a line of code that imports the file at run time: a file path here would make
    // Turbopack bundle the file (tsx and esbuild with it) instead of Node running it as it is.
    const file = pathToFileURL(path.join(process.cwd(), "lib/request-log/encode-worker.mjs")).href;
    worker = new Worker(`import(${JSON.stringify(file)})`, { eval: true, workerData: { columns: COLUMNS } });
  } catch (error) {
    logger.warn("request log encoder thread did not start; encoding here", { error: error instanceof Error ? error.message : String(error) });
    w.encoder = null;
    return null;
  }
  // Never what keeps the process alive once started, except while it holds a slice being encoded
  // (until then a drain on SIGTERM may be waiting for it).
  let started: (ok: boolean) => void = () => {};
  const thread: EncoderThread = { worker, pending: new Map(), next: 0, ready: new Promise<boolean>((resolve) => (started = resolve)) };
  const settle = (id: number) => {
    const pending = thread.pending.get(id);
    thread.pending.delete(id);
    if (thread.pending.size === 0) worker.unref();
    return pending;
  };
  worker.on("message", (message: { ready?: true; id?: number; slice?: EncodedSlice; error?: string }) => {
    if (message.ready) {
      if (thread.pending.size === 0) worker.unref();
      return started(true);
    }
    const pending = settle(message.id!);
    if (message.slice) pending?.resolve(message.slice);
    else pending?.reject(new Error(message.error ?? "the encoder answered nothing"));
  });
  const stop = (error: Error) => {
    if (w.encoder === thread) w.encoder = null;
    started(false);
    for (const id of [...thread.pending.keys()]) settle(id)?.reject(error);
  };
  worker.on("error", (error) => {
    logger.warn("request log encoder thread failed; encoding here", { error: error.message });
    stop(error);
  });
  worker.on("exit", () => stop(new Error("the request log's encoder thread stopped")));
  w.encoder = thread;
  return thread;
}

/** A slice encoded by the encoder thread, or here when it cannot (the same code, ./encode.ts). */
async function encode(w: Writer, entries: SettledRequest[], format: SliceFormat): Promise<EncodedSlice> {
  const thread = encoderThread(w);
  if (thread && (await thread.ready)) {
    try {
      return await new Promise<EncodedSlice>((resolve, reject) => {
        const id = thread.next++;
        if (thread.pending.size === 0) thread.worker.ref();
        thread.pending.set(id, { resolve, reject });
        thread.worker.postMessage({ id, entries, format });
      });
    } catch {
      // The thread stopped with this slice: encoded here instead.
    }
  }
  return encodeSlice(entries, format, COLUMNS);
}

/** The entry with its bodies read (a copy of an answer may still be arriving). */
async function settled(entry: LoggedRequest): Promise<SettledRequest> {
  const [requestBody, responseBody] = await Promise.all([entry.requestBody, entry.responseBody]);
  return { ...entry, requestBody, responseBody };
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

type WriteDb = Awaited<ReturnType<typeof getDb>>;

/** The bytes of row `n` of a slice, and of all of them. */
const rowBytes = (slice: EncodedSlice, n: number) => slice.bytes.subarray(n === 0 ? 0 : slice.ends[n - 1], slice.ends[n]);

/**
 * Encoded rows in one statement. On the embedded PGlite, whose work is this thread's: COPY from the
 * CSV as a blob, about 40 % cheaper a row than an INSERT. On PostgreSQL: one INSERT with one
 * parameter, the rows as a JSON array (json_populate_recordset), rather than 19 parameters a row.
 */
async function writeEncoded(db: WriteDb, format: SliceFormat, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  if (format === "csv") {
    await embeddedClientOf(db)!.query(COPY, [], { blob: new Blob([bytes]) });
    return;
  }
  await db.execute(sql`insert into ${requestLog} select * from json_populate_recordset(null::${requestLog}, ${new TextDecoder().decode(bytes)}::json)`);
}

/** Row `n` alone, in the slice's format (a JSON record loses the `[` or `,` before it). */
function oneRow(slice: EncodedSlice, format: SliceFormat, n: number): Uint8Array<ArrayBuffer> {
  const bytes = rowBytes(slice, n);
  if (format === "csv") return bytes;
  return new TextEncoder().encode(`[${new TextDecoder().decode(bytes.subarray(1))}]`);
}

/** A refusal of the row's own data (SQLSTATE class 22: a value the column cannot hold), not of the database being away. */
const isDataError = (error: unknown) => /^22/.test(String((error as { code?: unknown } | null)?.code ?? ""));

/**
 * A slice the database refused for one row's data is written row by row: the rows it takes are
 * kept, the one it refuses is dropped and counted, so one odd request never holds the log back.
 * Returns how many rows are done (written or dropped); fewer when the database went away meanwhile.
 */
async function writeRowByRow(db: WriteDb, slice: EncodedSlice, format: SliceFormat, batch: LoggedRequest[], w: Writer): Promise<number> {
  for (let n = 0; n < slice.ends.length; n += 1) {
    try {
      await writeEncoded(db, format, oneRow(slice, format, n));
    } catch (error) {
      // The database went away meanwhile: what is not written yet waits for the next flush.
      if (!isDataError(error)) return n;
      w.dropped += 1;
      recordRequestLogDropped(1);
      logger.warn("request log row refused", { path: batch[n]!.path.slice(0, 100), error: error instanceof Error ? error.message : String(error) });
    }
  }
  return slice.ends.length;
}

/** Lets the requests that arrived meanwhile run before the next slice. */
const letRequestsRun = () => new Promise<void>((resolve) => setImmediate(resolve));

async function writeBuffered(w: Writer): Promise<void> {
  while (w.buffer.length > 0) {
    await letRequestsRun();
    const batch = w.buffer.splice(0, BATCH);
    try {
      const db = await getDb();
      const format: SliceFormat = embeddedClientOf(db) ? "csv" : "json";
      const slice = await encode(w, await Promise.all(batch.map(settled)), format);
      try {
        await writeEncoded(db, format, slice.bytes);
      } catch (error) {
        if (!isDataError(error)) throw error;
        const written = await writeRowByRow(db, slice, format, batch, w);
        if (written < batch.length) {
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

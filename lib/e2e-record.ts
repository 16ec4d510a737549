/**
 * End-to-end runs only ("secrets"): when E2E_RECORD_DIR is set, `server.ts` hands every
 * request to `e2eTap`, which records what the server answered (every body but the built bundles
 * under /_next/static, which the scan reads from disk), what the client sent (so the scan learns the
 * passwords, secret keys and card numbers typed in), and everything the process writes to stdout
 * and stderr, at log level info whatever LOG_LEVEL says (the console still shows only LOG_LEVEL and
 * above). `GET /__e2e/dump` writes every row of every table (pg-boss's jobs included) to the same
 * directory, from the loopback only, while the server still holds the database.
 * `e2e/leak-scan.spec.ts` then searches all of it. Without E2E_RECORD_DIR, nothing here runs.
 *
 * Record files are frames: a line `@@e2e-record {json header with length}` and `length` raw bytes
 * (read back by e2e/support/leak-frames.ts, which imports only types from here: running this module
 * with E2E_RECORD_DIR set starts the output tee, which only the server wants). A response's header
 * carries the response headers as sent (`headers`, one "Name: value" line each, the status line
 * left out), so a secret in a Location, Set-Cookie or Link header is searched like one in a body.
 */
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import zlib from "node:zlib";

const RECORD_DIR_ENV = "E2E_RECORD_DIR";
const DUMP_PATH = "/__e2e/dump";
const FRAME = "@@e2e-record ";
/** Bodies beyond this are cut (and say so in their header): no page of this app comes near it. */
const MAX_BODY = 16 * 1024 * 1024;

type RecordKind = "response" | "request" | "table";
export type RecordHeader = {
  kind: RecordKind;
  method?: string;
  url?: string;
  status?: number;
  type?: string;
  action?: boolean;
  table?: string;
  truncated?: boolean;
  undecoded?: string;
  /** Response headers as sent, "Name: value\r\n" per line, each character one byte (HTTP headers are latin1). */
  headers?: string;
  /** The body was not kept (a font, an image, a built bundle): the headers still were. */
  bodySkipped?: boolean;
  length: number;
};

const recordDir = process.env[RECORD_DIR_ENV] || "";

function fileFor(dir: string, kind: RecordKind | "log"): string {
  const name = kind === "log" ? "server" : kind === "table" ? "db" : `${kind}s`;
  return path.join(dir, `${name}-${process.pid}.${kind === "log" ? "log" : "rec"}`);
}

export function writeFrame(file: string, header: Omit<RecordHeader, "length">, body: Buffer): void {
  fs.appendFileSync(file, Buffer.concat([Buffer.from(`${FRAME}${JSON.stringify({ ...header, length: body.length })}\n`), body, Buffer.from("\n")]));
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer | undefined {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return undefined;
}

/** Collects chunks up to MAX_BODY; `truncated` says when some were dropped. */
function collector() {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  return {
    add(chunk: unknown, encoding?: unknown) {
      const buffer = toBuffer(chunk, encoding);
      if (!buffer) return;
      if (size + buffer.length > MAX_BODY) truncated = true;
      else {
        chunks.push(buffer);
        size += buffer.length;
      }
    },
    take: () => ({ body: Buffer.concat(chunks), truncated }),
  };
}

/** The body as the client reads it: gzip, brotli and deflate undone (a cut stream as far as it goes). */
function decoded(body: Buffer, encoding: string): { body: Buffer; undecoded?: string } {
  if (body.length === 0 || !encoding || encoding === "identity") return { body };
  try {
    if (encoding === "gzip") return { body: zlib.gunzipSync(body, { finishFlush: zlib.constants.Z_SYNC_FLUSH }) };
    if (encoding === "br") return { body: zlib.brotliDecompressSync(body, { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }) };
    if (encoding === "deflate") return { body: zlib.inflateSync(body, { finishFlush: zlib.constants.Z_SYNC_FLUSH }) };
  } catch {
    // recorded as sent, and the header says so
  }
  return { body, undecoded: encoding };
}

function skipped(pathname: string, type: string): boolean {
  return pathname.startsWith("/_next/static/") || /^(image|font|audio|video)\//.test(type);
}

function headerLine(name: string, value: unknown): string {
  return (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${String(v)}\r\n`).join("");
}

/**
 * The response's header lines without the status line. Once the head went out, Node keeps its exact
 * text (`_header`, what the client read, Date and Transfer-Encoding included); before that (the
 * client went away first), the headers set so far and those given to writeHead.
 */
function headerBlock(res: http.ServerResponse, given: Record<string, string>): string {
  const wire = (res as unknown as { _header?: unknown })._header;
  if (typeof wire === "string" && wire.length > 0) return wire.slice(wire.indexOf("\r\n") + 2).replace(/\r\n$/, "");
  const set = res.getHeaders();
  return [...Object.entries(set), ...Object.entries(given).filter(([name]) => !(name in set))].map(([name, value]) => headerLine(name, value)).join("");
}

/** Records one exchange into `dir` once the answer is finished (or the connection closed). */
export function recordExchange(dir: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  const sent = collector();
  const received = collector();
  const emit = req.emit;
  // Watching `data` events, not listening for them, so the request's flow is not changed.
  req.emit = function (this: http.IncomingMessage, event: string | symbol, ...args: unknown[]) {
    if (event === "data") received.add(args[0]);
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof req.emit;
  // Headers given to writeHead directly never show in getHeader(): keep them.
  const given: Record<string, string> = {};
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    const headers = args.find((arg) => arg !== null && typeof arg === "object");
    const pairs: unknown[][] = Array.isArray(headers)
      ? Array.isArray(headers[0])
        ? (headers as unknown[][])
        : (headers as unknown[]).flatMap((v, i, all) => (i % 2 === 0 ? [[v, all[i + 1]]] : []))
      : Object.entries(headers ?? {});
    for (const [name, value] of pairs) given[String(name).toLowerCase()] = String(value);
    return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof res.writeHead;
  const header = (name: string) => String(res.getHeader(name) ?? given[name] ?? "");
  // 103 Early Hints go straight to the socket, before the real head: their Link lines are headers the client read too.
  const hints: string[] = [];
  const writeEarlyHints = res.writeEarlyHints;
  if (typeof writeEarlyHints === "function") {
    res.writeEarlyHints = function (this: http.ServerResponse, ...args: unknown[]) {
      const hinted = args[0];
      if (hinted && typeof hinted === "object") for (const [name, value] of Object.entries(hinted)) hints.push(headerLine(name, value));
      return (writeEarlyHints as (...a: unknown[]) => void).apply(this, args);
    } as typeof res.writeEarlyHints;
  }
  const sentHeaders = () => hints.join("") + headerBlock(res, given);
  const write = res.write;
  const end = res.end;
  res.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
    sent.add(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).apply(this, [chunk, ...rest]);
  } as typeof res.write;
  res.end = function (this: http.ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== "function") sent.add(chunk, rest[0]);
    return (end as (...args: unknown[]) => http.ServerResponse).apply(this, [chunk, ...rest]);
  } as typeof res.end;

  let done = false;
  const flush = () => {
    if (done) return;
    done = true;
    try {
      const url = req.url ?? "/";
      const method = req.method ?? "GET";
      const action = req.headers["next-action"] !== undefined;
      const request = received.take();
      if (request.body.length > 0)
        writeFrame(
          fileFor(dir, "request"),
          { kind: "request", method, url, action, type: String(req.headers["content-type"] ?? ""), truncated: request.truncated },
          request.body,
        );
      const type = header("content-type");
      const headers = sentHeaders();
      // A skipped body (a built bundle, read from disk by the scan; a font, an image) still has its headers searched.
      if (skipped(url.split("?")[0]!, type)) {
        writeFrame(
          fileFor(dir, "response"),
          { kind: "response", method, url, status: res.statusCode, type, action, headers, bodySkipped: true },
          Buffer.alloc(0),
        );
        return;
      }
      const response = sent.take();
      const { body, undecoded } = decoded(response.body, header("content-encoding").trim().toLowerCase());
      writeFrame(
        fileFor(dir, "response"),
        { kind: "response", method, url, status: res.statusCode, type, action, headers, truncated: response.truncated, ...(undecoded ? { undecoded } : {}) },
        body,
      );
    } catch (error) {
      process.stderr.write(`e2e record: ${String(error)}\n`);
    }
  };
  res.once("finish", flush);
  res.once("close", flush);
}

function isLoopback(address: string | undefined): boolean {
  return address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1";
}

/** PGlite answers `{ rows }`, postgres.js the rows themselves. */
function rowsOf<T>(answer: unknown): T[] {
  return Array.isArray(answer) ? (answer as T[]) : (answer as { rows: T[] }).rows;
}

async function dump(res: http.ServerResponse): Promise<void> {
  const [{ sql }, { getDb }, { flushRequestLog }] = await Promise.all([import("drizzle-orm"), import("@/lib/db/client"), import("@/lib/request-log/writer")]);
  // The request log's buffer first: the scan reads every request's row (lib/request-log).
  await flushRequestLog();
  const db = await getDb();
  const tables = rowsOf<{ schema: string; name: string }>(
    await db.execute(
      sql`select table_schema as schema, table_name as name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
    ),
  );
  const file = fileFor(recordDir, "table");
  fs.rmSync(file, { force: true });
  let rows = 0;
  for (const { schema, name } of tables) {
    const quoted = `"${schema.replaceAll('"', '""')}"."${name.replaceAll('"', '""')}"`;
    const lines = rowsOf<{ json: string }>(await db.execute(sql.raw(`select row_to_json(t)::text as json from ${quoted} t`))).map((row) => row.json);
    rows += lines.length;
    writeFrame(file, { kind: "table", table: `${schema}.${name}` }, Buffer.from(lines.join("\n")));
  }
  const body = JSON.stringify({ file, tables: tables.map((t) => `${t.schema}.${t.name}`), rows });
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

const LEVELS: Record<string, number> = { info: 0, warn: 1, error: 2, silent: 3 };

/** stdout and stderr go to the record's log file too; the logger writes at info, the console shows LOG_LEVEL and above. */
function teeOutput(): void {
  const shown = LEVELS[process.env.LOG_LEVEL ?? "info"] ?? 0;
  process.env.LOG_LEVEL = "info";
  const logFile = fileFor(recordDir, "log");
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const buffer = toBuffer(chunk, rest[0]);
      if (buffer) fs.appendFileSync(logFile, buffer);
      const level = /^\{"level":"(\w+)"/.exec(buffer?.toString("utf8", 0, 24) ?? "")?.[1];
      if (level === undefined || (LEVELS[level] ?? 0) >= shown) return write(chunk, ...rest);
      const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof stream.write;
  }
}

if (recordDir) {
  fs.mkdirSync(recordDir, { recursive: true });
  teeOutput();
}

/**
 * Called first for every request. Records it when E2E_RECORD_DIR is set; returns true when it
 * answered the request itself (the dump), false otherwise, and always false without E2E_RECORD_DIR.
 */
export function e2eTap(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (!recordDir) return false;
  if (req.url === DUMP_PATH && req.method === "GET" && isLoopback(req.socket.remoteAddress)) {
    dump(res).catch((error: unknown) => {
      res.writeHead(500, { "Content-Type": "text/plain" });
      res.end(`dump failed: ${String(error)}`);
    });
    return true;
  }
  recordExchange(recordDir, req, res);
  return false;
}

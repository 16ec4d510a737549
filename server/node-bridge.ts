import type { IncomingMessage, ServerResponse } from "node:http";
import { markLeanRequest, MAX_BODY_BYTES, rememberBufferedBody } from "@/lib/api/request";
import { isStreamedResponse, responseTextOf } from "@/lib/api/responses";

/**
 * node:http ⇄ Web Request/Response for the lean API path. The body is buffered up to one byte
 * past the API's limit, so readJsonBody still answers 413 for anything larger.
 */
export class BodyTooLarge extends Error {}

/**
 * After a 413 the rest of the body is read and thrown away, so the client can finish sending and
 * read the answer: closing a socket with unread data makes the kernel send a reset, and a client
 * still writing a chunked body then loses the 413 it was sent. Past this much, the connection is cut.
 */
const DISCARD_MAX_BYTES = 8 * 1024 * 1024;

function discardRest(req: IncomingMessage): void {
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_MAX_BYTES) req.destroy();
  });
  req.resume();
}

/** The body up to the API's limit (or the route's own); BodyTooLarge (the rest being discarded) past it. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.off("data", onData);
      req.off("end", onEnd);
      discardRest(req);
      reject(new BodyTooLarge());
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", reject);
  });
}

/**
 * `body: false`: the handler reads no body, so whatever comes is discarded unread (up to DISCARD_MAX_BYTES).
 * `lean: true` (the invoice API's lean path): the Request carries no body stream, since the handlers
 * under /api/commerce read their body with readJsonBody, which takes the bytes read here (a web
 * stream per request was a measurable share of the lean path's CPU in `npm run bench:api`'s
 * profile), and it is marked so answers may defer their body (jsonApi's deferBody). Other users
 * (the sandboxes' servers) get a Request whose body they can read as usual.
 */
export async function toWebRequest(
  req: IncomingMessage,
  origin: string,
  options: { body?: boolean; lean?: boolean; maxBodyBytes?: number } = {},
): Promise<Request> {
  const maxBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", origin);
  const made = (request: Request) => (options.lean ? markLeanRequest(request) : request);
  if (method === "GET" || method === "HEAD") return made(new Request(url, { method, headers }));
  if (options.body === false) {
    discardRest(req);
    headers.delete("content-length");
    return made(new Request(url, { method, headers }));
  }
  // A declared or streamed body past the limit is refused without keeping the rest of it.
  if (Number(req.headers["content-length"] ?? 0) > maxBytes) {
    discardRest(req);
    throw new BodyTooLarge();
  }
  const body = new Uint8Array(await readBody(req, maxBytes));
  headers.delete("content-length");
  // readJsonBody takes the bytes read here rather than streaming the Request's copy of them.
  return made(rememberBufferedBody(new Request(url, { method, headers, ...(options.lean ? {} : { body }) }), body));
}

export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // An answer made by jsonApi is written from its JSON text; any other is read from its body.
  const text = responseTextOf(response);
  if (text === undefined && response.body && isStreamedResponse(response)) return streamBody(response.body, response.status, headers, res);
  const body = text !== undefined ? Buffer.from(text) : response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  if (body && headers["content-length"] === undefined) headers["content-length"] = String(body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * A body of unknown length (the CSV export) goes out chunk by chunk as it is made, waiting for the
 * socket to drain, so the process holds one chunk rather than the whole answer; a client that goes
 * away cancels the stream, which stops reading the database.
 */
async function streamBody(body: ReadableStream<Uint8Array>, status: number, headers: Record<string, string | string[]>, res: ServerResponse): Promise<void> {
  res.writeHead(status, headers);
  const reader = body.getReader();
  const gone = () => void reader.cancel().catch(() => {});
  res.once("close", gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained(res);
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    // The stream failed after the headers went: end the connection so the client sees it cut short.
    res.destroy();
  } finally {
    res.off("close", gone);
  }
}

function drained(res: ServerResponse): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

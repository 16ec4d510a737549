import http from "node:http";
import { isApiPath, resolvedPath } from "@/lib/http/paths";

/**
 * Next reads a multipart POST to any path it renders as a page as a form submitted without
 * JavaScript (a server action's progressive enhancement), and a body that is not valid multipart
 * makes it throw and answer 500. This checks such a body before Next sees it: malformed answers
 * 400, oversized 413, and a well-formed one is handed on unchanged in a replayed request.
 * API routes read their own bodies and answer 415 to multipart, so they are left alone.
 */

/** next.config.mjs `serverActions.bodySizeLimit` (512 KiB), plus room for the multipart framing. */
const FORM_LIMIT_BYTES = 576 * 1024;
/** Past the limit the rest is read and dropped (up to this much) so the client reads the 413. */
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

/** A multipart POST to a page: the path as Next routes it, dot segments resolved (`/api/../sign-in` is a page). */
export function isFormPost(req: http.IncomingMessage, pathname: string): boolean {
  return req.method === "POST" && /^\s*multipart\/form-data/i.test(req.headers["content-type"] ?? "") && !isApiPath(resolvedPath(pathname));
}

type Checked = { ok: true; req: http.IncomingMessage } | { ok: false; status: 400 | 413 };

function readBody(req: http.IncomingMessage): Promise<Buffer | "too_large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= FORM_LIMIT_BYTES) chunks.push(chunk);
      else if (size > DRAIN_LIMIT_BYTES) req.destroy();
    });
    req.on("end", () => resolve(size > FORM_LIMIT_BYTES ? "too_large" : Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) resolve("too_large");
    });
  });
}

/** The same request with its body read once more: what Next is given instead of the consumed one. */
function replay(req: http.IncomingMessage, body: Buffer): http.IncomingMessage {
  const copy = new http.IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.complete = true;
  // The body is in memory: reading must not resume the socket, which now carries the next request.
  copy._read = () => undefined;
  copy.push(body);
  copy.push(null);
  return copy;
}

export async function checkFormPost(req: http.IncomingMessage): Promise<Checked> {
  const body = await readBody(req);
  if (body === "too_large") return { ok: false, status: 413 };
  try {
    await new Response(new Uint8Array(body), { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData();
  } catch {
    return { ok: false, status: 400 };
  }
  return { ok: true, req: replay(req, body) };
}

export function sendFormRefusal(res: http.ServerResponse, status: 400 | 413): void {
  const body =
    status === 413 ? "Payload Too Large: a form may send at most 512 KiB." : "Bad Request: the form data is not valid multipart/form-data.";
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

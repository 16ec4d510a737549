import http from "node:http";
import { isApiPath, resolvedPath } from "@/lib/http/paths";
import { logger } from "@/lib/logger";
import { isActionCallForm, isActionCallText } from "./action-call";

/**
 * Next decodes two kinds of POST to a path it renders as a page itself, and answers a body it
 * cannot decode with a 500 and a stack trace in the log:
 * - a multipart body, read as a form submitted without JavaScript (a server action's progressive
 *   enhancement), which must be valid multipart;
 * - a server action call (a `Next-Action` header), whose arguments React encoded either as text
 *   or, when they hold files, as multipart (what is checked: server/action-call.ts).
 * This checks such a body before Next sees it: malformed answers 400 (and logs one line), oversized
 * 413, and a well-formed one is handed on unchanged in a replayed request. API routes read their
 * own bodies and answer 415 to multipart, so they are left alone.
 */

/** next.config.mjs `serverActions.bodySizeLimit` (512 KiB), plus room for the multipart framing. */
const FORM_LIMIT_BYTES = 576 * 1024;
/** Past the limit the rest is read and dropped (up to this much) so the client reads the 413. */
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

const isMultipart = (req: http.IncomingMessage) => /^\s*multipart\/form-data/i.test(req.headers["content-type"] ?? "");
const isActionCall = (req: http.IncomingMessage) => req.headers["next-action"] !== undefined;

/** A multipart POST or a server action call to a page: the path as Next routes it, dot segments resolved (`/api/../sign-in` is a page). */
export function isFormPost(req: http.IncomingMessage, pathname: string): boolean {
  return req.method === "POST" && (isMultipart(req) || isActionCall(req)) && !isApiPath(resolvedPath(pathname));
}

export type Refusal = { status: 400; reason: "malformed_form" | "malformed_action" } | { status: 413 };
type Checked = { ok: true; req: http.IncomingMessage } | ({ ok: false } & Refusal);

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
  if (isMultipart(req)) {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData();
    } catch {
      return { ok: false, status: 400, reason: "malformed_form" };
    }
    if (isActionCall(req) && !isActionCallForm(form)) return { ok: false, status: 400, reason: "malformed_action" };
  } else {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      return { ok: false, status: 400, reason: "malformed_action" };
    }
    if (!isActionCallText(text)) return { ok: false, status: 400, reason: "malformed_action" };
  }
  return { ok: true, req: replay(req, body) };
}

const REFUSALS = {
  malformed_form: "Bad Request: the form data is not valid multipart/form-data.",
  malformed_action: "Bad Request: the body is not a server action call (its arguments as JSON, or multipart/form-data carrying them).",
} as const;

/** The refusal, and one log line naming the path and why (never the body). */
export function sendFormRefusal(res: http.ServerResponse, pathname: string, refusal: Refusal): void {
  const reason = refusal.status === 413 ? "too_large" : refusal.reason;
  logger.warn("POST body refused before Next", { path: pathname.slice(0, 200), status: refusal.status, reason });
  const body = refusal.status === 413 ? "Payload Too Large: a form may send at most 512 KiB." : REFUSALS[refusal.reason];
  res.writeHead(refusal.status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

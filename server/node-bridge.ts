import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_BODY_BYTES } from "@/lib/api/request";

/**
 * node:http ⇄ Web Request/Response for the lean API path. The body is buffered up to one byte
 * past the API's limit, so readJsonBody still answers 413 for anything larger.
 */
export class BodyTooLarge extends Error {}

export async function toWebRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return new Request(new URL(req.url ?? "/", origin), { method, headers });
  // A declared or streamed body past the limit is refused without reading the rest of it.
  if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
  }
  headers.delete("content-length");
  return new Request(new URL(req.url ?? "/", origin), { method, headers, body: Buffer.concat(chunks) });
}

export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  res.writeHead(response.status, headers);
  res.end(body);
}

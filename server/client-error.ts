import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { jsonApiError, jsonApiErrorBody } from "@/lib/api/errors";
import { requestIdOf } from "@/lib/api/request";
import { API_SECURITY_HEADERS } from "@/lib/api/security-headers";

/**
 * Requests Node's HTTP parser refuses before any of our code sees them: headers over Node's 16 KiB
 * (431), a request that took too long to arrive (408), anything else it cannot parse (400). Node's
 * own answer is a bare status line; this one is a JSON:API error with a request id, like every other
 * error the API gives, with the server's and the API's security headers. The path is unknown at this
 * point (the request was never parsed), so it is the API's form for every path.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, securityHeaders: [string, string][]): void {
  // An answer already going out on this connection (keep-alive, pipelining) must not get a second head in its middle.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight) {
    socket.destroy();
    return;
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const detail =
    status === 431
      ? "The request's headers are larger than the server accepts (16 KiB in all)."
      : status === 408
        ? "The request did not arrive in time."
        : "The request is not valid HTTP.";
  // A HEAD's answer has no body, or the client reads it as the next answer. The packet the parser
  // failed on starts with the failing request's line when that request came in one piece and alone
  // (no request's end in the packet but its own), as it does over loopback. Otherwise (a request split
  // across packets, requests pipelined in one) the method cannot be told and the body is sent.
  const packet = (error as { rawPacket?: unknown }).rawPacket;
  const head = Buffer.isBuffer(packet) && packet.subarray(0, 5).toString("latin1") === "HEAD " && [-1, packet.length - 4].includes(packet.indexOf("\r\n\r\n"));
  const requestId = requestIdOf(new Request("http://localhost/"));
  const title = STATUS_CODES[status]!;
  const code = status === 431 ? "headers_too_large" : status === 408 ? "request_timeout" : "bad_request";
  const body = jsonApiErrorBody([jsonApiError(status, code, title, detail)], requestId);
  // By name, so a header both lists hold (nosniff) is written once.
  const security = new Map<string, string>([...securityHeaders, ...API_SECURITY_HEADERS].map(([name, value]) => [name.toLowerCase(), `${name}: ${value}`]));
  const lines = [
    "Content-Type: application/vnd.api+json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    ...security.values(),
    "Connection: close",
  ];
  socket.end(`HTTP/1.1 ${status} ${title}\r\n${lines.join("\r\n")}\r\n\r\n${head ? "" : body}`);
}

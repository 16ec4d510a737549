/**
 * Production server (`npm start`): Next for the dashboard and every other route, and a lean path for
 * the invoice API. `/api/commerce/*` is matched first and served by the very same route handler
 * modules without Next's request pipeline, which measured at a quarter of a bare server's
 * throughput (`npm run bench`). Same process, same database handle, same lib/ code.
 */
import http from "node:http";
import path from "node:path";
import { parse } from "node:url";
import next from "next";
import { normalizeForwardedHeaders, trustedProxyHops } from "@/lib/auth/client-address";
import { jsonApiError, jsonApiErrorBody } from "@/lib/api/errors";
import { requestIdOf } from "@/lib/api/request";
import { API_SECURITY_HEADERS } from "@/lib/api/security-headers";
import { metricsSettings, publicBaseUrl } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { e2eTap } from "@/lib/e2e-record";
import { hasMalformedEscape, isApiPath } from "@/lib/http/paths";
import { stopJobs } from "@/lib/jobs/queue";
import { drainRequestLog } from "@/lib/request-log/writer";
import { outboxPageEnabled, smtpUrl } from "@/lib/mail/config";
import { startServer } from "@/lib/server-start";
import { answerClientError } from "@/server/client-error";
import { checkFormPost, isFormPost, sendFormRefusal } from "@/server/form-post-guard";
import { startMetricsListener } from "@/server/metrics-listener";
import { trackRequest, labelRoutesFromBuild } from "@/server/request-metrics";
import { sendInternalError, serveCommerce } from "@/server/serve-commerce";
import { servePayAsset } from "@/server/serve-pay-assets";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "127.0.0.1";
const origin = `http://${hostname}:${port}`;
// Read once at start: a bad value stops the server here rather than on the first sign-in.
const proxyHops = trustedProxyHops();
const metricsConfig = metricsSettings();

await startServer({ listen: hostname });
const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();
// The routes of the build, for the request metrics' route labels (Next's default build folder).
labelRoutesFromBuild(path.join(process.cwd(), ".next"));

/**
 * On every answer, pages, APIs and files alike (pages also get their CSP from proxy.ts): no MIME
 * sniffing, no full URLs (invoice ids, reset tokens) in the Referer sent to other sites, and HSTS
 * when people reach the server over https (APP_URL): browsers then never try http again.
 */
const securityHeaders: [string, string][] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ...(publicBaseUrl().startsWith("https://") ? [["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as [string, string]] : []),
];

/** `.` or `..` as a segment, written plainly or percent-encoded (URLs resolve both). */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

function sendMalformedPath(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): void {
  const api = isApiPath(pathname);
  // Like every API answer: an X-Request-Id, repeated as meta.request_id, and the API's security headers.
  const incoming = req.headers["x-request-id"];
  const requestId = requestIdOf(new Request("http://localhost/", { headers: typeof incoming === "string" ? { "x-request-id": incoming } : {} }));
  const body = api
    ? jsonApiErrorBody([jsonApiError(400, "malformed_path", "Bad Request", "The address has a malformed percent-escape.")], requestId)
    : "Bad Request: the address has a malformed percent-escape.";
  res.writeHead(400, {
    "Content-Type": api ? "application/vnd.api+json" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    ...(api ? { "X-Request-Id": requestId, ...Object.fromEntries(API_SECURITY_HEADERS) } : {}),
  });
  res.end(body);
}

const server = http.createServer((req, res) => {
  if (e2eTap(req, res)) return; // E2E_RECORD_DIR only: records the exchange for the e2e secrets scan
  trackRequest(res); // request count and latency by route (server/request-metrics.ts)
  // Before anything reads them: the client address and forwarded host are what TRUST_PROXY_HOPS allows.
  normalizeForwardedHeaders(req.headers, req.socket.remoteAddress, proxyHops);
  for (const [name, value] of securityHeaders) res.setHeader(name, value);
  let url = parse(req.url ?? "/", true);
  let pathname = url.pathname ?? "/";
  if (hasMalformedEscape(pathname)) return sendMalformedPath(req, res, pathname);
  // An API path with a trailing or doubled slash names the same resource (Next would answer a bare 308
  // without X-Request-Id, which API clients cannot read); pages keep Next's redirect. A path with dot
  // segments is left to Next, which resolves them (`/api/../x` is no API path).
  if (isApiPath(pathname) && !DOT_SEGMENT.test(pathname) && /\/\/|.\/$/.test(pathname)) {
    pathname = pathname.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
    req.url = `${pathname}${url.search ?? ""}`;
    url = parse(req.url, true);
  }
  if (isFormPost(req, pathname)) {
    // Next would answer a malformed multipart body or action call with a 500: checked first (server/form-post-guard.ts).
    checkFormPost(req)
      .then((checked) => (checked.ok ? handle(checked.req, res, url) : sendFormRefusal(res, pathname, checked)))
      .catch(() => sendInternalError(req, res));
    return;
  }
  const lean =
    pathname === "/api/commerce" || pathname.startsWith("/api/commerce/")
      ? serveCommerce(req, res, pathname, origin)
      : pathname.startsWith("/pay/assets/")
        ? servePayAsset(req, res, pathname) // the hosted page's stylesheet and script, compressed: Next would drop their Content-Encoding
        : Promise.resolve(false);
  lean.then((served) => (served ? undefined : handle(req, res, url))).catch(() => sendInternalError(req, res));
});

// Headers over 16 KiB and unparsable requests: a JSON:API error with a request id, not Node's bare status line.
server.on("clientError", (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket, securityHeaders));

server.listen(port, hostname, () => {
  console.log(`Payment Orchestrator listening on http://${hostname}:${port}`);
  // Where sign-up links, resets and invitations go (lib/mail/config.ts).
  if (outboxPageEnabled()) console.log(`Mail is not sent (no SMTP_URL): read it at ${publicBaseUrl()}/outbox`);
  else if (!smtpUrl()) console.log("Mail is not sent (no SMTP_URL) and /outbox is off in production: list it with npm run admin -- outbox");
});
// METRICS_PORT: /metrics without the token on a listener of its own (server/metrics-listener.ts).
const metricsServer = startMetricsListener(metricsConfig);

/** How long a stop waits for the requests in flight before closing their connections. */
const DRAIN_MS = Number(process.env.SHUTDOWN_DRAIN_MS ?? 25_000);
let stopping = false;

/**
 * SIGTERM / SIGINT: no new connections; the requests in flight finish and are answered (up to
 * DRAIN_MS; keep-alive connections are closed as soon as they are idle), then the request log's
 * buffer is written, then the job workers
 * finish the job in hand and take no new one, then the process exits 0. Anything not finished runs
 * again after the restart (jobs are rows; an interrupted request is recovered by its sweep).
 */
async function shutDown(): Promise<void> {
  if (stopping) return; // npx, tsx and the process group may each pass the same signal on
  stopping = true;
  metricsServer?.close();
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  let deadline: NodeJS.Timeout | undefined;
  await Promise.race([drained, new Promise<void>((resolve) => (deadline = setTimeout(resolve, DRAIN_MS)))]);
  clearInterval(idle);
  clearTimeout(deadline);
  server.closeAllConnections();
  // The request log's last second (lib/request-log/writer.ts), before the database goes.
  await drainRequestLog().catch(() => undefined);
  await getDb()
    .then((db) => stopJobs(db, 10_000))
    .catch(() => undefined);
  process.exit(0);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void shutDown());

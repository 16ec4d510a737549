/**
 * Production server (`npm start`): Next for the dashboard and every other route, and a lean path for
 * the invoice API. `/api/commerce/*` is matched first and served by the very same route handler
 * modules without Next's request pipeline, which measured at a quarter of a bare server's
 * throughput (`npm run bench`). Same process, same database handle, same lib/ code.
 */
import http from "node:http";
import { parse } from "node:url";
import next from "next";
import { startServer } from "@/lib/server-start";
import { matchCommerceRoute } from "@/server/commerce-routes";
import { BodyTooLarge, sendWebResponse, toWebRequest } from "@/server/node-bridge";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "127.0.0.1";

await startServer();
const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

function sendError(res: http.ServerResponse, status: number, code: string, title: string, detail: string, headers: Record<string, string> = {}) {
  if (res.headersSent) return res.destroy();
  res.writeHead(status, { "content-type": "application/vnd.api+json", connection: "close", ...headers });
  res.end(JSON.stringify({ errors: [{ status: String(status), code, title, detail }] }));
}

/** The handlers map every error themselves; this answers what happens before one is reached. */
async function serveCommerce(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<boolean> {
  const match = matchCommerceRoute(req.method ?? "GET", pathname);
  if (!match) return false;
  if ("methodNotAllowed" in match) {
    const allow = match.methodNotAllowed.join(", ");
    sendError(res, 405, "method_not_allowed", "Method not allowed", `Use ${match.methodNotAllowed.join(" or ")}`, { allow });
    return true;
  }
  let request: Request;
  try {
    request = await toWebRequest(req, `http://${hostname}:${port}`);
  } catch (error) {
    if (error instanceof BodyTooLarge) sendError(res, 413, "payload_too_large", "Payload too large", "The body is over 64 KiB");
    else sendError(res, 400, "bad_request", "Bad request", "The request could not be read");
    return true;
  }
  await sendWebResponse(await match.handler(request, { params: Promise.resolve(match.params) }), res);
  return true;
}

const server = http.createServer((req, res) => {
  const url = parse(req.url ?? "/", true);
  const lean = url.pathname?.startsWith("/api/commerce/") ? serveCommerce(req, res, url.pathname) : Promise.resolve(false);
  lean
    .then((served) => (served ? undefined : handle(req, res, url)))
    .catch(() => sendError(res, 500, "internal_error", "Internal error", "The request could not be completed"));
});

server.listen(port, hostname, () => {
  console.log(`Payment Orchestrator listening on http://${hostname}:${port}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}

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
import { sendWebResponse, toWebRequest } from "@/server/node-bridge";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "127.0.0.1";

await startServer();
const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer(async (req, res) => {
  const url = parse(req.url ?? "/", true);
  const match = url.pathname?.startsWith("/api/commerce/") ? matchCommerceRoute(req.method ?? "GET", url.pathname) : undefined;
  if (!match) return handle(req, res, url);
  try {
    if ("methodNotAllowed" in match) {
      res.writeHead(405, { allow: match.methodNotAllowed.join(", "), "content-type": "application/vnd.api+json" });
      res.end(JSON.stringify({ errors: [{ status: "405", code: "method_not_allowed", title: "Method not allowed", detail: `Use ${match.methodNotAllowed.join(" or ")}` }] }));
      return;
    }
    const request = await toWebRequest(req, `http://${req.headers.host ?? `${hostname}:${port}`}`);
    await sendWebResponse(await match.handler(request, { params: Promise.resolve(match.params) }), res);
  } catch {
    // The handlers map every error themselves; this only catches a broken connection.
    if (!res.headersSent) res.writeHead(500).end();
  }
});

server.listen(port, hostname, () => {
  console.log(`Payment Orchestrator listening on http://${hostname}:${port}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}

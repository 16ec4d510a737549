/**
 * Production server (`npm start`): Next for the dashboard and every other route, and a lean path for
 * the invoice API. `/api/commerce/*` is matched first and served by the very same route handler
 * modules without Next's request pipeline, which measured at a quarter of a bare server's
 * throughput (`npm run bench`). Same process, same database handle, same lib/ code.
 */
import http from "node:http";
import { parse } from "node:url";
import next from "next";
import { getDb } from "@/lib/db/client";
import { e2eTap } from "@/lib/e2e-record";
import { stopJobs } from "@/lib/jobs/queue";
import { startServer } from "@/lib/server-start";
import { sendInternalError, serveCommerce } from "@/server/serve-commerce";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME ?? "127.0.0.1";
const origin = `http://${hostname}:${port}`;

await startServer();
const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  if (e2eTap(req, res)) return; // E2E_RECORD_DIR only: records the exchange for the e2e secrets scan
  const url = parse(req.url ?? "/", true);
  const pathname = url.pathname ?? "/";
  const lean = pathname === "/api/commerce" || pathname.startsWith("/api/commerce/") ? serveCommerce(req, res, pathname, origin) : Promise.resolve(false);
  lean.then((served) => (served ? undefined : handle(req, res, url))).catch(() => sendInternalError(req, res));
});

server.listen(port, hostname, () => {
  console.log(`Payment Orchestrator listening on http://${hostname}:${port}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    // Workers finish the job in hand; anything not finished runs again after the restart.
    void getDb()
      .then((db) => stopJobs(db))
      .catch(() => undefined)
      .finally(() => server.close(() => process.exit(0)));
  });
}

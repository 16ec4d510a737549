import http from "node:http";
import type { MetricsSettings } from "@/lib/config";
import { answerMetrics } from "@/lib/metrics/endpoint";
import { sendWebResponse } from "./node-bridge";

/**
 * METRICS_PORT: `GET /metrics` on a listener of its own (METRICS_HOST, loopback by default) without
 * the token, for a scraper on a private network; every other path there is 404. Started by
 * server.ts and by `npm run worker` (which has no other HTTP server), each with its own figures.
 */
export function startMetricsListener(settings: MetricsSettings): http.Server | undefined {
  if (settings.port === undefined) return undefined;
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (pathname !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: only GET /metrics is served here.\n");
      return;
    }
    answerMetrics(new Request("http://localhost/metrics", { method: req.method }), "metrics-port")
      .then((response) => sendWebResponse(response, res))
      .catch(() => res.writeHead(500).end());
  });
  server.listen(settings.port, settings.host, () => console.log(`Metrics on http://${settings.host}:${settings.port}/metrics`));
  return server;
}

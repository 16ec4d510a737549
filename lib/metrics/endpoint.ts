import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { metricsSettings } from "@/lib/config";
import { renderMetrics } from "./scrape";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Compares the bearer token with METRICS_TOKEN in constant time (both hashed first: equal lengths, nothing learnt from where they differ). */
function bearerMatches(authorization: string | null, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
  return timingSafeEqual(digest(match?.[1] ?? ""), digest(token)) && match !== null;
}

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });
}

/**
 * `GET /metrics`. `via: "main"` (app/metrics/route.ts, on the server's own port): 404 unless
 * METRICS_TOKEN is set, then 401 without `Authorization: Bearer <METRICS_TOKEN>`. `via:
 * "metrics-port"`: the METRICS_PORT listener of server.ts, which only a private network reaches,
 * answers without the token. The body is the Prometheus text format; its labels carry no
 * merchant's data (lib/metrics/registry.ts).
 */
export async function answerMetrics(request: Request, via: "main" | "metrics-port"): Promise<Response> {
  if (via === "main") {
    const { token } = metricsSettings();
    if (token === undefined) return plain(404, "Not found: /metrics is served with METRICS_TOKEN or on METRICS_PORT (docs/deploy.md).\n");
    if (!bearerMatches(request.headers.get("authorization"), token)) {
      return plain(401, "Unauthorized: send Authorization: Bearer <METRICS_TOKEN>.\n", { "WWW-Authenticate": 'Bearer realm="metrics"' });
    }
  }
  const { contentType, body } = await renderMetrics();
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}

import { otherMethods } from "@/lib/api/methods";
import { answerMetrics } from "@/lib/metrics/endpoint";

/**
 * `GET /metrics` (and HEAD) on the server's own port: the Prometheus text format for a scraper
 * holding METRICS_TOKEN; 404 when no token is configured (docs/deploy.md "Watching it"). proxy.ts
 * lets it through to this check. METRICS_PORT serves the same answer on a listener of its own
 * (server.ts).
 */
export const GET = (request: Request) => answerMetrics(request, "main");
export const HEAD = GET;

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);

import { otherMethods } from "@/lib/api/methods";
import { requestIdOf } from "@/lib/api/request";
import { secureApiResponse } from "@/lib/api/security-headers";
import { checkHealth } from "@/lib/service-status/checks";
import { logger } from "@/lib/logger";

/**
 * `GET /api/health` (and HEAD): liveness and readiness for load balancers and orchestrators
 * (docs/deploy.md "Health"). No authentication and nothing secret: the status of each check, its
 * duration, and a fixed word when it failed. 200 when every check passes, 503 otherwise; never
 * cached. Not rate-limited and not logged while healthy (probes come every few seconds from every
 * balancer); a 503 logs one warning line with its request id.
 */
async function answer(request: Request, withBody: boolean): Promise<Response> {
  const requestId = requestIdOf(request);
  const report = await checkHealth();
  const status = report.status === "ok" ? 200 : 503;
  if (status !== 200) logger.warn("health: unavailable", { requestId, checks: report.checks });
  const body = JSON.stringify(report);
  return secureApiResponse(new Response(withBody ? body : null, { status, headers: { "Content-Type": "application/json", "X-Request-Id": requestId } }));
}

export const GET = (request: Request) => answer(request, true);
export const HEAD = (request: Request) => answer(request, false);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);

import { isApiPath } from "@/lib/http/paths";
import { logger } from "@/lib/logger";
import { recordRateLimitRefusal } from "@/lib/metrics/record";
import { handleApiError, singleErrorResponse } from "./errors";
import { isLeanRequest, requestIdOf } from "./request";
import { completeDeferredBody } from "./responses";
import { secureApiResponse } from "./security-headers";

/** Next 16 route handler: dynamic params arrive as a Promise. */
export type RouteHandler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

/** 429 with Retry-After, for a request over a limit that names no key (the per-address limit of public routes). */
export function rateLimited(retryAfterSeconds: number, requestId: string): Response {
  recordRateLimitRefusal("api_address");
  return singleErrorResponse(429, "rate_limited", "Too many requests", `Slow down; retry after ${retryAfterSeconds} second(s).`, requestId, {
    "Retry-After": String(retryAfterSeconds),
  });
}

/** Handlers may return a Response with immutable headers (e.g. a proxied fetch); copy it then. */
function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set("X-Request-Id", requestId);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("X-Request-Id", requestId);
    return copy;
  }
}

/**
 * Shared by every wrapper (withSession too): request id, error mapping, the id header on every
 * answer, the API's security headers on every answer under /api (the hosted page's routes use the
 * wrappers too, and keep the page policy proxy.ts gives them), one log line.
 */
export async function runLogged(
  request: Request,
  body: (requestId: string) => Promise<Response>,
  /** Told of the answer as sent (withApiKey's request log), before its body is read. */
  answered?: (response: Response, path: string, durationMs: number) => void,
): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(request);
  const path = new URL(request.url).pathname;
  let response: Response;
  try {
    response = await body(requestId);
  } catch (error) {
    response = handleApiError(error, requestId);
  }
  // The lean path writes a deferred answer's text itself; anyone else reads its body.
  if (!isLeanRequest(request)) response = completeDeferredBody(response);
  response = withRequestId(response, requestId);
  if (isApiPath(path)) response = secureApiResponse(response);
  const durationMs = Math.round(performance.now() - started);
  // Path only: query strings and headers can carry identifiers or secrets.
  logger.info("api request", { method: request.method, path, status: response.status, durationMs, requestId });
  answered?.(response, path, durationMs);
  return response;
}

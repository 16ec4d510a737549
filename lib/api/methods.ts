import { singleErrorResponse } from "./errors";
import { runLogged, type RouteHandler } from "./run-logged";

/**
 * Next answers a method a route file does not export with a bare 405 (no body, no request id).
 * A route file exports these for the other methods instead, so every answer of the API is a
 * JSON:API document with `X-Request-Id` and `meta.request_id`, and `Allow` names what works.
 * The lean path under /api/commerce (server/commerce-routes.ts) answers with the same handlers.
 */
const ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof ALL_METHODS)[number];

/** The methods a route module serves: the handlers it exports. */
export function methodsOf(module: object): Method[] {
  return ALL_METHODS.filter((method) => method in module);
}

function allowOf(own: readonly Method[]): string {
  const allow = new Set<Method>(own);
  if (allow.has("GET")) allow.add("HEAD");
  allow.add("OPTIONS");
  return ALL_METHODS.filter((method) => allow.has(method)).join(", ");
}

export function methodNotAllowed<P>(own: readonly Method[]): RouteHandler<P> {
  const allow = allowOf(own);
  return (request) =>
    runLogged(request, async (requestId) =>
      singleErrorResponse(405, "method_not_allowed", "Method not allowed", `${request.method} is not served here; use ${allow}.`, requestId, { Allow: allow }),
    );
}

/** OPTIONS: 204 with Allow (Next's own OPTIONS would also list the 405 handlers above). */
export function listMethods<P>(own: readonly Method[]): RouteHandler<P> {
  const allow = allowOf(own);
  return (request) => runLogged(request, async () => new Response(null, { status: 204, headers: { Allow: allow } }));
}

/**
 * The handlers a route file exports for the methods it does not serve (HEAD follows GET):
 * `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"])`.
 */
export function otherMethods<P = Record<string, string>>(own: readonly Method[]): Record<Exclude<Method, "HEAD">, RouteHandler<P>> {
  const refuse = methodNotAllowed<P>(own);
  return { GET: refuse, POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse, OPTIONS: listMethods<P>(own) };
}

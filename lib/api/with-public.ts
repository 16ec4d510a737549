import { negotiateJsonApi } from "./negotiation";
import { assertQueryParameters, type QueryParameters } from "./query";
import { takeAddressToken } from "./rate-limit";
import { rateLimited, runLogged, type RouteHandler } from "./run-logged";

/** The public wrapper: no credential, a limit per client address, the same request id and log line as every wrapper. */
export type PublicContext<P> = { request: Request; params: P; requestId: string };

export type WithPublicOptions = {
  /**
   * A JSON:API resource route: media type parameters are negotiated (415/406) and only these query
   * parameters are accepted (400 for any other). Without it (provider callbacks, the hosted page's
   * status poll) the request is taken as it comes.
   */
  jsonApi?: { query: QueryParameters };
  /** Requests the per-address limit does not count (this server's own calls to its sandboxes). */
  exempt?: (request: Request) => boolean;
};

export function withPublic<P = Record<string, string>>(
  handler: (ctx: PublicContext<P>) => Promise<Response>,
  options: WithPublicOptions = {},
): RouteHandler<P> {
  return (request, context) =>
    runLogged(request, async (requestId) => {
      if (options.jsonApi) {
        negotiateJsonApi(request);
        assertQueryParameters(request, options.jsonApi.query);
      }
      if (!options.exempt?.(request)) {
        const decision = await takeAddressToken(clientAddressOf(request));
        if (!decision.ok) return rateLimited(decision.retryAfterSeconds, requestId);
      }
      const params = await context.params;
      return handler({ request, params, requestId });
    });
}

/**
 * The first x-forwarded-for entry is client-controlled unless a trusted proxy overwrites it; it only
 * spreads public traffic over buckets, it is not used for anything that grants access. Capped in
 * length so a forged header cannot make each remembered bucket key arbitrarily large.
 */
function clientAddressOf(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim().slice(0, 64);
  return forwarded || "local";
}

import { authenticateApiKey } from "@/lib/api-keys/queries";
import { allows, canInMode, CAPABILITIES, refusalFor, type ModeFamily, type Permission } from "@/lib/identity/permissions";
import { getDb, type Db } from "@/lib/db/client";
import { isApiPath } from "@/lib/http/paths";
import { logger } from "@/lib/logger";
import type { Merchant } from "@/lib/identity/membership";
import type { Mode } from "@/lib/providers";
import { handleApiError, singleErrorResponse } from "./errors";
import { negotiateJsonApi } from "./negotiation";
import { assertQueryParameters, type QueryParameters } from "./query";
import { rateLimitSettings, takeAddressToken, takeKeyedTokens, type Limit } from "./rate-limit";
import { requestIdOf } from "./request";
import { secureApiResponse } from "./security-headers";

/** Next 16 route handler: dynamic params arrive as a Promise. */
export type RouteHandler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

export type ApiKeyContext<P> = {
  request: Request;
  params: P;
  merchant: Merchant;
  keyId: string;
  /** True for a support member's composer credential: creates and changes test-mode invoices only. */
  testOnly: boolean;
  /**
   * A stored key's mode: it creates and reads invoices of this mode only (another mode's invoice is
   * not found, a create in it is refused). Undefined for the composer's session credential.
   */
  keyMode: Mode | undefined;
  db: Db;
  requestId: string;
};

export type PublicContext<P> = { request: Request; params: P; requestId: string };

export type WithApiKeyOptions = {
  /**
   * Also accept the composer's short-lived session credential (lib/api-keys/session-credential.ts).
   * Only the invoice API opts in: the credential must never manage connections or keys. A
   * permission (lib/identity/permissions.ts) limits it to people whose role allows that; a
   * mode-scoped one makes it test-only unless the role may act in live mode too.
   */
  allowSessionCredential?: boolean | Permission;
  /** A POST that changes nothing (the routing simulator): read-only keys may call it too. */
  changesNothing?: boolean;
  /** The query parameters the route documents; any other answers 400 (JSON:API). None by default. */
  query?: QueryParameters;
};

/** The invoice API's reads: the composer reads them as an outside client would (every role sees invoices). */
export const COMPOSER_MAY_CALL: WithApiKeyOptions = { allowSessionCredential: true };

/** The invoice API's changes the composer's credential may make, when its person's role allows them. */
export function composerMayCall(permission: Permission): WithApiKeyOptions {
  return { allowSessionCredential: permission };
}

const BEARER = /^Bearer +(\S+) *$/i;
const READ_METHODS = new Set(["GET", "HEAD"]);

function rateLimited(retryAfterSeconds: number, requestId: string): Response {
  return singleErrorResponse(
    429,
    "rate_limited",
    "Too many requests",
    `Slow down; retry after ${retryAfterSeconds} second(s).`,
    requestId,
    { "Retry-After": String(retryAfterSeconds) },
  );
}

/**
 * A keyed request over one of its limits: the code and detail say which, so a client with several
 * keys knows whether spreading over more keys could help (per key) or not (per merchant).
 */
function keyedRateLimited(which: "key" | "merchant", limit: Limit, retryAfterSeconds: number, requestId: string): Response {
  const rate = `${limit.perSecond} requests per second, bursts of ${limit.burst}`;
  const [code, detail] =
    which === "key"
      ? ["rate_limited", `This API key's limit (${rate}) is reached; retry after ${retryAfterSeconds} second(s).`]
      : ["merchant_rate_limited", `The limit for all of this merchant's API keys together (${rate}) is reached; retry after ${retryAfterSeconds} second(s).`];
  return singleErrorResponse(429, code, "Too many requests", detail, requestId, { "Retry-After": String(retryAfterSeconds) });
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
export async function runLogged(request: Request, body: (requestId: string) => Promise<Response>): Promise<Response> {
  const started = performance.now();
  const requestId = requestIdOf(request);
  const path = new URL(request.url).pathname;
  let response: Response;
  try {
    response = await body(requestId);
  } catch (error) {
    response = handleApiError(error, requestId);
  }
  response = withRequestId(response, requestId);
  if (isApiPath(path)) response = secureApiResponse(response);
  // Path only: query strings and headers can carry identifiers or secrets.
  logger.info("api request", {
    method: request.method,
    path,
    status: response.status,
    durationMs: Math.round(performance.now() - started),
    requestId,
  });
  return response;
}

export function withApiKey<P = Record<string, string>>(
  handler: (ctx: ApiKeyContext<P>) => Promise<Response>,
  options: WithApiKeyOptions = {},
): RouteHandler<P> {
  return (request, context) =>
    runLogged(request, async (requestId) => {
      negotiateJsonApi(request);
      const match = BEARER.exec(request.headers.get("authorization") ?? "");
      if (!match) {
        return singleErrorResponse(
          401,
          "unauthorized",
          "Unauthorized",
          "Send the API key as 'Authorization: Bearer <key>'.",
          requestId,
          { "WWW-Authenticate": "Bearer" },
        );
      }
      const db = await getDb();
      const auth = await authenticateApiKey(db, match[1]!);
      if (!auth || (auth.session && !options.allowSessionCredential)) {
        return singleErrorResponse(401, "invalid_api_key", "Invalid API key", "The API key is unknown, revoked, or rolled and past its grace period.", requestId, {
          "WWW-Authenticate": 'Bearer error="invalid_token"',
        });
      }
      const needs = options.allowSessionCredential;
      let testOnly = auth.testOnly;
      if (auth.session && typeof needs === "string") {
        const role = auth.role ?? "read_only";
        if (!allows(role, needs)) return singleErrorResponse(403, "forbidden", "Forbidden", refusalFor(role, needs), requestId);
        if (!(needs in CAPABILITIES)) testOnly = testOnly || !canInMode(role, needs as ModeFamily, "live");
      }
      // A read-only key reads only; refused before it spends anything of the limits.
      if (auth.readOnly && !READ_METHODS.has(request.method) && !options.changesNothing) {
        return singleErrorResponse(
          403,
          "insufficient_scope",
          "Read-only API key",
          "This API key is read-only: it may only read (GET). Use a key with full access to create or change anything.",
          requestId,
        );
      }
      // Limited by key id, never by the raw key, so no secret is held in the limiter's memory.
      // The key's own limit first: a request its key may not send spends nothing of the merchant's.
      const decision = await takeKeyedTokens(auth.keyId, auth.merchant.id);
      if (!decision.ok) return keyedRateLimited(decision.limit, rateLimitSettings()[decision.limit], decision.retryAfterSeconds, requestId);
      assertQueryParameters(request, options.query ?? []);
      const params = await context.params;
      return handler({ request, params, merchant: auth.merchant, keyId: auth.keyId, testOnly, keyMode: auth.keyMode, db, requestId });
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

import { authenticateApiKey } from "@/lib/api-keys/queries";
import { allows, canInMode, CAPABILITIES, refusalFor, type ModeFamily, type Permission } from "@/lib/identity/permissions";
import { getDb, type Db } from "@/lib/db/client";
import type { Merchant } from "@/lib/identity/membership";
import type { Mode } from "@/lib/providers";
import { recordRateLimitRefusal } from "@/lib/metrics/record";
import { singleErrorResponse } from "./errors";
import { negotiateJsonApi } from "./negotiation";
import { assertQueryParameters, type QueryParameters } from "./query";
import { rateLimitSettings, takeKeyedTokens, type Limit } from "./rate-limit";
import { keyLabel, logAnswered, type LogContext } from "./request-log";
import { runLogged, type RouteHandler } from "./run-logged";

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

/**
 * A keyed request over one of its limits: the code and detail say which, so a client with several
 * keys knows whether spreading over more keys could help (per key) or not (per merchant).
 */
function keyedRateLimited(which: "key" | "merchant", limit: Limit, retryAfterSeconds: number, requestId: string): Response {
  recordRateLimitRefusal(which === "key" ? "api_key" : "api_merchant");
  const rate = `${limit.perSecond} requests per second, bursts of ${limit.burst}`;
  const [code, detail] =
    which === "key"
      ? ["rate_limited", `This API key's limit (${rate}) is reached; retry after ${retryAfterSeconds} second(s).`]
      : ["merchant_rate_limited", `The limit for all of this merchant's API keys together (${rate}) is reached; retry after ${retryAfterSeconds} second(s).`];
  return singleErrorResponse(429, code, "Too many requests", detail, requestId, { "Retry-After": String(retryAfterSeconds) });
}

export function withApiKey<P = Record<string, string>>(
  handler: (ctx: ApiKeyContext<P>) => Promise<Response>,
  options: WithApiKeyOptions = {},
): RouteHandler<P> {
  return (request, context) => {
    // Set once the key is known: the request log keeps the requests of a merchant's stored keys.
    let logged: LogContext | undefined;
    return runLogged(
      request,
      async (requestId) => {
        negotiateJsonApi(request);
        const match = BEARER.exec(request.headers.get("authorization") ?? "");
        if (!match) {
          return singleErrorResponse(401, "unauthorized", "Unauthorized", "Send the API key as 'Authorization: Bearer <key>'.", requestId, {
            "WWW-Authenticate": "Bearer",
          });
        }
        const db = await getDb();
        const auth = await authenticateApiKey(db, match[1]!);
        if (!auth || (auth.session && !options.allowSessionCredential)) {
          return singleErrorResponse(
            401,
            "invalid_api_key",
            "Invalid API key",
            "The API key is unknown, revoked, or rolled and past its grace period.",
            requestId,
            {
              "WWW-Authenticate": 'Bearer error="invalid_token"',
            },
          );
        }
        const needs = options.allowSessionCredential;
        let testOnly = auth.testOnly;
        if (auth.session && typeof needs === "string") {
          const role = auth.role ?? "read_only";
          if (!allows(role, needs)) return singleErrorResponse(403, "forbidden", "Forbidden", refusalFor(role, needs), requestId);
          if (!(needs in CAPABILITIES)) testOnly = testOnly || !canInMode(role, needs as ModeFamily, "live");
        }
        // A stored key's requests are logged from here on, refusals of its limits included; the
        // composer's session credential is the dashboard's own, not an integration's.
        if (auth.keyMode) {
          logged = {
            merchantId: auth.merchant.id,
            testMode: auth.keyMode === "test",
            apiKeyId: auth.keyId,
            ...keyLabel(match[1]!),
            requestId,
          };
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
      },
      (response, path, durationMs) => {
        if (logged) logAnswered(request, logged, response, path, durationMs);
      },
    );
  };
}

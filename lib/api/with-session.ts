import { getViewer, MFA_ENROLMENT_REQUIRED } from "@/lib/auth/viewer";
import { mustEnrolMfa } from "@/lib/identity/membership";
import { getDb, type Db } from "@/lib/db/client";
import { allows, refusalFor, type Permission } from "@/lib/identity/permissions";
import type { Viewer } from "@/lib/identity/membership";
import { handleApiError, singleErrorResponse } from "./errors";
import { runLogged, type RouteHandler } from "./run-logged";

export type SessionContext<P> = { request: Request; params: P; viewer: Viewer; db: Db; requestId: string };

export type WithSessionOptions = {
  /** What the caller's role must allow (lib/identity/permissions.ts); without it, any signed-in member may call. */
  can?: Permission;
};

/**
 * Answers read with the session cookie are one person's: no shared cache may keep them. Under /api
 * runLogged then sets the API's plain no-store; this is what a session route elsewhere keeps (a
 * connection's public key download).
 */
const PRIVATE = "private, no-store";

function privately(response: Response): Response {
  try {
    response.headers.set("Cache-Control", PRIVATE);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", PRIVATE);
    return copy;
  }
}

/**
 * The dashboard's JSON routes (for TanStack Query), authenticated by the session cookie rather
 * than an API key. proxy.ts skips /api, so this answers 401 and 403 itself, as JSON:API, and maps
 * thrown errors like withApiKey.
 */
export function withSession<P = Record<string, string>>(
  handler: (ctx: SessionContext<P>) => Promise<Response>,
  options: WithSessionOptions = {},
): RouteHandler<P> {
  return (request, context) =>
    runLogged(request, async (requestId) => {
      let response: Response;
      try {
        const viewer = await getViewer();
        if (!viewer) {
          response = singleErrorResponse(401, "unauthorized", "Unauthorized", "Your session has ended; sign in again.", requestId);
        } else if (mustEnrolMfa(viewer)) {
          response = singleErrorResponse(403, "mfa_enrolment_required", "Forbidden", MFA_ENROLMENT_REQUIRED, requestId);
        } else if (options.can && !allows(viewer.user.role, options.can)) {
          response = singleErrorResponse(403, "forbidden", "Forbidden", refusalFor(viewer.user.role, options.can), requestId);
        } else {
          response = await handler({ request, params: await context.params, viewer, db: await getDb(), requestId });
        }
      } catch (error) {
        response = handleApiError(error, requestId);
      }
      return privately(response);
    });
}

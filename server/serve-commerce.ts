import type http from "node:http";
import { singleErrorResponse } from "@/lib/api/errors";
import { requestIdOf } from "@/lib/api/request";
import { secureApiResponse } from "@/lib/api/security-headers";
import { matchCommerceRoute } from "./commerce-routes";
import { BodyTooLarge, sendWebResponse, toWebRequest } from "./node-bridge";
import { nameRoute } from "./request-metrics";

/** Before a route handler runs there is no wrapper to answer, so these match what one would say (and carry the same headers). */
async function sendError(req: http.IncomingMessage, res: http.ServerResponse, status: number, code: string, title: string, detail: string) {
  if (res.headersSent) return void res.destroy();
  const id = req.headers["x-request-id"];
  const requestId = requestIdOf(new Request("http://localhost/", { headers: typeof id === "string" ? { "x-request-id": id } : {} }));
  // A 413's unread body is being discarded (node-bridge), so the connection may stay open; closing
  // it now would reset a client still sending before it read the answer.
  const response = singleErrorResponse(status, code, title, detail, requestId, status === 413 ? {} : { connection: "close" });
  await sendWebResponse(secureApiResponse(response), res).catch(() => res.destroy());
}

/**
 * The lean path: serves a request under /api/commerce with the route module Next would use, or
 * answers false for anything else. The handlers map every error themselves.
 */
export async function serveCommerce(req: http.IncomingMessage, res: http.ServerResponse, pathname: string, origin: string): Promise<boolean> {
  const match = matchCommerceRoute(req.method ?? "GET", pathname);
  if (!match) return false;
  nameRoute(res, match.series);
  let request: Request;
  try {
    request = await toWebRequest(req, origin, { body: match.body, lean: true, maxBodyBytes: match.maxBodyBytes });
  } catch (error) {
    if (error instanceof BodyTooLarge)
      await sendError(
        req,
        res,
        413,
        "payload_too_large",
        "Payload too large",
        `The body is over ${match.maxBodyBytes === undefined ? "64 KiB" : `${match.maxBodyBytes} bytes`}`,
      );
    else await sendError(req, res, 400, "bad_request", "Bad request", "The request could not be read");
    return true;
  }
  await sendWebResponse(await match.handler(request, { params: Promise.resolve(match.params) }), res);
  return true;
}

/** The last resort of the whole server: a failure nobody mapped. */
export function sendInternalError(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  return sendError(req, res, 500, "internal_error", "Internal error", "The request could not be completed");
}

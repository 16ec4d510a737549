import type { NextRequest } from "next/server";
import { errorResponse } from "@/lib/api/errors";
import { requestIdOf } from "@/lib/api/request";
import { handlers } from "@/lib/auth";
import { SIGN_IN_WINDOW_MS } from "@/lib/auth/rate-limit";

export const { GET } = handlers;

const LIMITED = "code=too_many_attempts";

/** Where next-auth sends the client after a refused sign-in: the Location, or `url` in the JSON it answers `X-Auth-Return-Redirect` with. */
async function refusalUrl(response: Response): Promise<string> {
  const location = response.headers.get("location");
  if (location) return location;
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return "";
  try {
    const body = (await response.clone().json()) as { url?: unknown };
    return typeof body.url === "string" ? body.url : "";
  } catch {
    return "";
  }
}

/**
 * next-auth answers every refused sign-in alike (a redirect to /sign-in with an error code). When the
 * refusal is the sign-in limit (REFERENCE "Limits": 10 failures per 15 minutes per account and per
 * address), an HTTP client gets 429 with `Retry-After` instead: the window's length, the longest it
 * may have to wait. next-auth's headers stay (its cookies, and the Location for clients that follow it).
 * The dashboard's own form signs in through a server action and shows the same limit as a message.
 */
export async function POST(request: NextRequest): Promise<Response> {
  const response = await handlers.POST(request);
  if (!(await refusalUrl(response)).includes(LIMITED)) return response;
  const retryAfterSeconds = Math.ceil(SIGN_IN_WINDOW_MS / 1000);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("Retry-After", String(retryAfterSeconds));
  headers.set("Cache-Control", "no-store");
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return errorResponse(
    429,
    [{ status: "429", code: "too_many_attempts", title: "Too many sign-in attempts", detail: `Too many failed sign-ins. Wait up to ${minutes} minutes and try again.` }],
    requestIdOf(request),
    headers,
  );
}

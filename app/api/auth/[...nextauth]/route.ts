import type { NextRequest } from "next/server";
import { singleErrorResponse } from "@/lib/api/errors";
import { requestIdOf } from "@/lib/api/request";
import { handlers } from "@/lib/auth";
import { retryAfterOfCode, waitInWords } from "@/lib/auth/sign-in-limit";

export const { GET } = handlers;

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

function codeOf(url: string): string | null {
  try {
    return new URL(url, "http://localhost").searchParams.get("code");
  } catch {
    return null;
  }
}

/**
 * next-auth answers every refused sign-in alike (a redirect to /sign-in with an error code). When the
 * refusal is the sign-in limit (lib/auth/sign-in-limit.ts), an HTTP client gets 429 with
 * `Retry-After` instead: the seconds this address must wait for this account, carried in the code.
 * next-auth's headers stay (its cookies, and the Location for clients that follow it). The
 * dashboard's own form signs in through a server action and shows the same limit as a message.
 */
export async function POST(request: NextRequest): Promise<Response> {
  const response = await handlers.POST(request);
  const retryAfterSeconds = retryAfterOfCode(codeOf(await refusalUrl(response)));
  if (retryAfterSeconds === undefined) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("Retry-After", String(retryAfterSeconds));
  headers.set("Cache-Control", "no-store");
  return singleErrorResponse(
    429,
    "too_many_attempts",
    "Too many sign-in attempts",
    `Too many failed sign-ins. Try again in ${waitInWords(retryAfterSeconds)}.`,
    requestIdOf(request),
    headers,
  );
}

import "server-only";
import type { Problem } from "@/lib/problems";
import { checkOutboundUrl } from "@/lib/http/url-check";

/**
 * Provider D's `api_url` is where this server sends the connection's API key and a
 * signature made with its secret key. In live mode it must be an https address on the public
 * internet: never private, loopback, link-local, unique-local, CGNAT, the cloud metadata address
 * or an IPv4-mapped form of those (the webhook URL check's ranges, lib/http/url-check.ts).
 * Checked when the connection is saved (a host that does not resolve then is accepted: the check
 * before each send still applies) and before every live request (then it must resolve). Test mode
 * never calls it: its requests go to the sandbox on this server.
 */
const API_URL_FIELD = "api_url";

export async function checkLiveApiUrl(value: unknown, phase: "save" | "send"): Promise<Problem[]> {
  if (typeof value !== "string" || value.trim() === "") return [];
  const checked = await checkOutboundUrl(value, {
    label: "API URL",
    path: ["credentials", API_URL_FIELD],
    unresolvable: phase === "save" ? "accept" : "refuse",
  });
  return checked.ok ? [] : checked.problems;
}

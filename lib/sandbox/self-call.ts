import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";

/**
 * This server's own calls to its sandboxes (every test-mode payment, status request and Test
 * connection) come from its own address, which the per-address limit of public routes would
 * otherwise count as one busy client. They carry a token only instances sharing AUTH_SECRET can
 * make; the sandbox route lets them past that limit. Never recorded in an exchange log.
 */
export const SANDBOX_CALLER_HEADER = "x-sandbox-caller";

export function sandboxCallerToken(): string {
  return createHmac("sha256", authSecret()).update("sandbox-caller").digest("base64url");
}

export function isOwnSandboxCall(request: Request): boolean {
  const given = request.headers.get(SANDBOX_CALLER_HEADER);
  if (!given) return false;
  const expected = Buffer.from(sandboxCallerToken());
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";
import { z } from "zod";
import { ROLES, type Role } from "@/lib/db/schema";
import { canInMode } from "@/lib/identity/permissions";

/**
 * A short-lived credential for the invoice composer: the dashboard posts to the invoice API over
 * HTTP exactly as a client would, without ever holding a stored API key (those stay hashed).
 * `pos_<payload>.<hmac>`, signed with a key derived from AUTH_SECRET; support members' credentials
 * are limited to test mode.
 */
const PREFIX = "pos_";
export const SESSION_CREDENTIAL_TTL_MS = 5 * 60_000;

const claimsSchema = z.object({
  merchantId: z.string().min(1),
  userId: z.string().min(1),
  role: z.enum(ROLES),
  testOnly: z.boolean(),
  expiresAt: z.number(),
});

export type SessionCredential = { merchantId: string; userId: string; role: Role; testOnly: boolean; expiresAt: number };

let cachedKey: { secret: string; key: Buffer } | undefined;

/** Derived once per secret: verifying a token costs no file read. */
function signingKey(): Buffer {
  const secret = authSecret();
  if (cachedKey?.secret !== secret) {
    cachedKey = { secret, key: createHmac("sha256", secret).update("invoice-api session credential v1").digest() };
  }
  return cachedKey.key;
}

function sign(payload: string): string {
  return createHmac("sha256", signingKey()).update(payload).digest("base64url");
}

export function mintSessionCredential(input: { merchantId: string; userId: string; role: Role }, now = Date.now()): string {
  const claims: SessionCredential = { ...input, testOnly: !canInMode(input.role, "invoices.compose", "live"), expiresAt: now + SESSION_CREDENTIAL_TTL_MS };
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${PREFIX}${payload}.${sign(payload)}`;
}

export function isSessionCredential(token: string): boolean {
  return token.startsWith(PREFIX);
}

/** The claims of a valid, unexpired credential; undefined for anything else. */
export function verifySessionCredential(token: string, now = Date.now()): SessionCredential | undefined {
  if (!isSessionCredential(token) || token.length > 1_000) return undefined;
  const parts = token.slice(PREFIX.length).split(".");
  if (parts.length !== 2) return undefined;
  const [payload, signature] = parts as [string, string];
  if (!payload || !signature) return undefined;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const claims = claimsSchema.safeParse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
    return claims.success && claims.data.expiresAt > now ? claims.data : undefined;
  } catch {
    return undefined;
  }
}

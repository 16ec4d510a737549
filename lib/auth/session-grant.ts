import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { findViewer } from "@/lib/identity/membership";

/**
 * A session without a password, for the two moments that have already proved who the person is in
 * the same request: an invitation link used up (lib/merchants/invites.ts `acceptInvite`), and a
 * sign-up link confirmed (with the password, or from the browser that signed up). The server action
 * that did so issues a grant and at once hands it to next-auth's `session-grant` provider
 * (lib/auth/index.ts), in the same process. A grant is 256 random bits, never sent to the browser,
 * kept in this process's memory as its SHA-256, good for 30 seconds and once: whoever posts to
 * next-auth's callback for that provider from outside has nothing to present.
 */
export const SESSION_GRANT_TTL_MS = 30_000;

type Grant = { userId: string; expiresAt: number };
const KEY = Symbol.for("payment-orchestrator.session-grants");
// One map per process, however many module copies Next's bundles make of this file.
const grants: Map<string, Grant> =
  ((globalThis as Record<symbol, unknown>)[KEY] as Map<string, Grant> | undefined) ?? ((globalThis as Record<symbol, unknown>)[KEY] = new Map<string, Grant>());

const digest = (grant: string) => createHash("sha256").update(grant, "utf8").digest("base64url");

export function issueSessionGrant(userId: string, now = Date.now()): string {
  for (const [key, held] of grants) if (held.expiresAt <= now) grants.delete(key);
  const grant = randomBytes(32).toString("base64url");
  grants.set(digest(grant), { userId, expiresAt: now + SESSION_GRANT_TTL_MS });
  return grant;
}

/** The user a grant was issued for, once; undefined for anything else (unknown, used, expired, not a string). */
export function redeemSessionGrant(grant: unknown, now = Date.now()): string | undefined {
  if (typeof grant !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(grant)) return undefined;
  const key = digest(grant);
  const held = grants.get(key);
  grants.delete(key);
  return held && held.expiresAt > now ? held.userId : undefined;
}

/** next-auth's `authorize` for the `session-grant` provider: the person the grant names, as sign-in returns them. */
export async function authorizeSessionGrant(raw: Partial<Record<string, unknown>> | undefined) {
  const userId = redeemSessionGrant(raw?.grant);
  if (!userId) return null;
  const viewer = await findViewer(await getDb(), userId);
  if (!viewer) return null;
  const { id, email, name, sessionVersion } = viewer.user;
  return { id, email, name, sessionVersion };
}

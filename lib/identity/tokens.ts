import { createHash, randomBytes } from "node:crypto";

/**
 * Tokens of e-mailed links (password reset, invitation): 32 random bytes, URL-safe. Only their
 * SHA-256 is stored, so a copy of the database cannot be turned into working links.
 */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A token in a URL path: anything else is answered as an unknown link before any query. */
export function isLinkTokenShape(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

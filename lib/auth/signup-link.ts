import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { authSecret } from "./secret";

/** A sign-up link works for 24 hours; using it creates the account, so it cannot create a second. */
export const SIGN_UP_LINK_TTL_MS = 24 * 60 * 60_000;

export const SIGN_UP_LINK_INVALID = "This sign-up link is not valid: it was changed, or it expired (links work for 24 hours). Sign up again.";

/** `browser`: the SHA-256 of the signing-up browser's mark (lib/auth/signup-browser.ts); older links have none. */
export type PendingSignUp = { name: string; email: string; merchantName: string; commerceAccount: string; passwordHash: string; browser?: string };

/**
 * Sign-up waits for the e-mail's owner: the form's answer is the same whether or not the
 * address has an account, and the account is created only from the link mailed to the address.
 * What was typed travels in the link itself, sealed with AES-256-GCM under a key derived from
 * AUTH_SECRET (nothing is stored until the link is used, so unconfirmed sign-ups leave no rows and
 * hold no e-mail or commerce account). The password is inside only as its bcrypt hash, used to
 * check that whoever finishes is the person who chose it, unless they finish in the browser that
 * signed up (`browser`).
 */
function key(): Buffer {
  return createHash("sha256").update(`sign-up link\0${authSecret()}`).digest();
}

export function sealSignUp(pending: PendingSignUp, now = Date.now()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const plain = Buffer.from(JSON.stringify({ ...pending, expiresAt: now + SIGN_UP_LINK_TTL_MS }), "utf8");
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** What a link holds, or undefined when it was altered, made under another secret, or has expired. */
export function openSignUp(token: string, now = Date.now()): PendingSignUp | undefined {
  if (typeof token !== "string" || token.length < 40 || token.length > 2000 || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  try {
    const raw = Buffer.from(token, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    const data = JSON.parse(plain) as PendingSignUp & { expiresAt: number };
    if (typeof data.expiresAt !== "number" || data.expiresAt <= now) return undefined;
    const { name, email, merchantName, commerceAccount, passwordHash, browser } = data;
    return { name, email, merchantName, commerceAccount, passwordHash, ...(typeof browser === "string" ? { browser } : {}) };
  } catch {
    return undefined;
  }
}

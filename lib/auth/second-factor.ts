import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { authSecret } from "./secret";

/**
 * The sign-in's second step is bound to its first by a challenge: the person's id and session
 * version, sealed with AES-256-GCM under a key derived from AUTH_SECRET, valid for 5 minutes. Step
 * one (e-mail and right password of someone with two-factor on) answers it instead of a session;
 * step two sends it back with the code. Nothing in it is secret from its holder, but nobody can make
 * or alter one, and it dies with the session version (sign-out everywhere, a new password).
 *
 * `reissue` challenges never leave the server: after a password change the person's own browser is
 * given a new session (lib/auth/reissue.ts) without asking for a code it already gave at sign-in.
 */
const CHALLENGE_TTL_MS = 5 * 60_000;
const REISSUE_TTL_MS = 30_000;

export type Challenge = { userId: string; sessionVersion: number; purpose: "second_factor" | "reissue" };

function key(): Buffer {
  return createHash("sha256").update(`sign-in second factor\0${authSecret()}`).digest();
}

export function sealChallenge(challenge: Challenge, now = Date.now()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const ttl = challenge.purpose === "reissue" ? REISSUE_TTL_MS : CHALLENGE_TTL_MS;
  const plain = Buffer.from(JSON.stringify({ u: challenge.userId, v: challenge.sessionVersion, p: challenge.purpose, e: now + ttl }), "utf8");
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The challenge a token holds, or undefined when it was altered, made under another secret, or has expired. */
export function openChallenge(token: unknown, now = Date.now()): Challenge | undefined {
  if (typeof token !== "string" || token.length < 40 || token.length > 2000 || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  try {
    const raw = Buffer.from(token, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const data = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8")) as {
      u: unknown;
      v: unknown;
      p: unknown;
      e: unknown;
    };
    if (typeof data.e !== "number" || data.e <= now || typeof data.u !== "string" || typeof data.v !== "number") return undefined;
    if (data.p !== "second_factor" && data.p !== "reissue") return undefined;
    return { userId: data.u, sessionVersion: data.v, purpose: data.p };
  } catch {
    return undefined;
  }
}

/** The code a step-one answer carries through next-auth (its only channel): the challenge. */
const PREFIX = "second_factor:";
export function secondFactorCode(token: string): string {
  return `${PREFIX}${token}`;
}
export function challengeOfCode(code: string | null | undefined): string | undefined {
  return code?.startsWith(PREFIX) ? code.slice(PREFIX.length) : undefined;
}

/** Codes of a refused second step. */
export const WRONG_SECOND_FACTOR = "wrong_second_factor";
export const EXPIRED_CHALLENGE = "expired_second_factor";

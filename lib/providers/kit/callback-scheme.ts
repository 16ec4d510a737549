import "server-only";
import { createHmac, sign as signWith, timingSafeEqual, verify as verifyWith, type KeyObject } from "node:crypto";

/**
 * The building blocks the providers' callback schemes share (`lib/providers/<slug>/callbacks.ts`):
 * HMAC and Ed25519 signatures compared in constant time and the five-minute window on timestamps.
 * The order of the checks and the refusals' words live in `./callbacks.ts`.
 */

/** A callback whose timestamp is further than this from now is refused as stale (either way: clocks drift). */
const CALLBACK_MAX_SKEW_SECONDS = 300;

export function hmac(algorithm: "sha256" | "sha512", key: string, text: string, encoding: "hex" | "base64" = "hex"): string {
  return createHmac(algorithm, key).update(text, "utf8").digest(encoding);
}

/** Equal strings, compared in constant time (a length difference is told at once, as it leaks nothing useful). */
export function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function signEd25519(privateKey: KeyObject, text: string): string {
  return signWith(null, Buffer.from(text, "utf8"), privateKey).toString("base64");
}

export function verifyEd25519(publicKey: KeyObject, text: string, signature: string): boolean {
  try {
    return verifyWith(null, Buffer.from(text, "utf8"), publicKey, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}

/** Unix seconds from a header: digits only, else undefined. */
export function unixSeconds(value: string | null | undefined): number | undefined {
  return value && /^\d{1,12}$/.test(value) ? Number(value) : undefined;
}

export function isFresh(timestamp: number, now: number = Date.now() / 1000): boolean {
  return Math.abs(now - timestamp) <= CALLBACK_MAX_SKEW_SECONDS;
}

/** The raw body as JSON, or undefined: read only after the signature verified. */
export function parseJson(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    return undefined;
  }
}

/** A credential as text ("" when absent), for keying an HMAC. */
export function credentialText(credentials: Record<string, unknown>, id: string): string {
  const value = credentials[id];
  return typeof value === "string" ? value : "";
}

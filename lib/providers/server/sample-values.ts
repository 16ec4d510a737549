import "server-only";
import { randomBytes } from "node:crypto";
import { generateKeyPair, type GeneratedKeyPair } from "./generate-key-pair";

let cachedKeyPair: GeneratedKeyPair | undefined;

/** RSA generation is slow, and demo data does not need a distinct pair per connection. */
export function sampleKeyPair(): GeneratedKeyPair {
  cachedKeyPair ??= generateKeyPair();
  return cachedKeyPair;
}

/** A random URL-safe token of `bytes` random bytes, for sample secrets. */
export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString("base64url");
}

import "server-only";
import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from "node:crypto";
import { credentialsKey } from "@/lib/vault/vault-key";
import type { Mode } from "@/lib/providers/types";

/**
 * Providers A and E sign their callbacks with their own key (Ed25519), not with anything the
 * merchant holds; the service verifies with the provider's public key. Live mode reads that key
 * from the environment (`PROVIDER_A_CALLBACK_PUBLIC_KEY`, `PROVIDER_E_CALLBACK_PUBLIC_KEY`, PEM);
 * the sandboxes stand in for the providers in test mode with a key pair derived per provider from
 * this installation's credentials key (HKDF), so nothing is stored and every process of one
 * installation agrees on it.
 */

/** PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

const derived = new Map<string, { privateKey: KeyObject; publicKey: KeyObject }>();

/** The sandbox's key pair for one provider's callbacks (test mode). */
export function sandboxCallbackKeyPair(slug: string, vaultKey: Buffer = credentialsKey()): { privateKey: KeyObject; publicKey: KeyObject } {
  const cacheKey = `${slug}:${vaultKey.toString("base64")}`;
  let pair = derived.get(cacheKey);
  if (!pair) {
    const seed = Buffer.from(hkdfSync("sha256", vaultKey, "sandbox-callback-keys", `callback-signing:${slug}`, 32));
    const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
    pair = { privateKey, publicKey: createPublicKey(privateKey) };
    derived.set(cacheKey, pair);
  }
  return pair;
}

/** `provider-e` → `PROVIDER_E_CALLBACK_PUBLIC_KEY`. */
export function callbackPublicKeyVariable(slug: string): string {
  return `${slug.replace(/[^a-z0-9]+/gi, "_").toUpperCase()}_CALLBACK_PUBLIC_KEY`;
}

/** The key a provider's callbacks verify with in this mode, or why there is none. */
export function providerCallbackPublicKey(slug: string, mode: Mode): { ok: true; key: KeyObject } | { ok: false; reason: string } {
  if (mode === "test") return { ok: true, key: sandboxCallbackKeyPair(slug).publicKey };
  const variable = callbackPublicKeyVariable(slug);
  const pem = process.env[variable]?.trim();
  if (!pem) return { ok: false, reason: `no callback public key configured (${variable})` };
  try {
    const key = createPublicKey(pem.replace(/\\n/g, "\n"));
    if (key.asymmetricKeyType !== "ed25519") return { ok: false, reason: `${variable} is not an Ed25519 public key` };
    return { ok: true, key };
  } catch {
    return { ok: false, reason: `${variable} is not a readable PEM public key` };
  }
}

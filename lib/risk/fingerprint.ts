import "server-only";
import { createHmac, hkdfSync } from "node:crypto";
import { credentialsKey } from "@/lib/vault/vault-key";

/**
 * Keyed hashes for the risk counters and the blocklist: HMAC-SHA-256 with a key derived from the
 * vault's master key (HKDF, its own label), so a fingerprint names a card without being reversible
 * by anyone who lacks that key (a card number's 10¹⁵ possibilities are few enough to try against a
 * plain hash). The card number itself is never stored or logged. Rotating the master key starts new
 * fingerprints: counters begin afresh and card entries of the blocklist must be added again.
 */
const keys = globalThis as unknown as { __riskKey?: { master: Buffer; derived: Buffer } };

function riskKey(): Buffer {
  const master = credentialsKey();
  if (keys.__riskKey?.master !== master) {
    keys.__riskKey = { master, derived: Buffer.from(hkdfSync("sha256", master, "", "risk-fingerprints-v1", 32)) };
  }
  return keys.__riskKey.derived;
}

function keyedHash(kind: string, value: string): string {
  return createHmac("sha256", riskKey()).update(`${kind}\u0000${value}`).digest("base64url");
}

/** The card's fingerprint: its digits only, so "4242 4242…" and "42424242…" are one card. */
export function cardFingerprint(cardNumber: string): string {
  return keyedHash("card", cardNumber.replace(/\D/g, ""));
}

export function addressHash(address: string): string {
  return keyedHash("address", address.trim().toLowerCase());
}

export function emailHash(email: string): string {
  return keyedHash("email", email.trim().toLowerCase());
}

import { createHash, createHmac, hkdfSync } from "node:crypto";
import { canonicalJson } from "@/lib/canonical-json";

/**
 * Idempotency (REFERENCE "Errors"): a retry with a used reference_id must send the same `data`.
 * "Same" means the same JSON value, so key order and whitespace do not matter: the stored hash is
 * SHA-256 over canonical JSON (object keys sorted, arrays in order).
 */

const fingerprintKeys = new WeakMap<Buffer, Buffer>();

function fingerprintKey(secret: Buffer): Buffer {
  let key = fingerprintKeys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "invoice card fingerprint v1", 32));
    fingerprintKeys.set(secret, key);
  }
  return key;
}

/**
 * A plain SHA-256 over a body holding a full card number would leak it: the stored mask shows
 * ten digits, the Luhn digit fixes one more, so the other five fall to 10^5 guesses. The number
 * therefore enters the hash only as a keyed HMAC (PCI DSS 4.0 req. 3.5.1.1), with a key derived
 * from the credentials key that never leaves the server.
 */
function cardFingerprint(digits: string, secret: Buffer): string {
  return `hmac:${createHmac("sha256", fingerprintKey(secret)).update(digits).digest("hex")}`;
}

function withCardFingerprint(data: unknown, fingerprint: string): unknown {
  const record = data as { attributes: { fields: Record<string, unknown> } & Record<string, unknown> };
  return {
    ...record,
    attributes: { ...record.attributes, fields: { ...record.attributes.fields, card_number: fingerprint } },
  };
}

/**
 * Hash of a request's `data` member. `fullCardNumber` (digits only) replaces the payout card as
 * sent, through its keyed fingerprint, so "4111 1111…" and "41111111…" count as the same body.
 */
export function requestHash(data: unknown, card?: { fullCardNumber: string; secret: Buffer }): string {
  const hashed = card ? withCardFingerprint(data, cardFingerprint(card.fullCardNumber, card.secret)) : data;
  return createHash("sha256").update(canonicalJson(hashed)).digest("hex");
}

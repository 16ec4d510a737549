/**
 * Canonical JSON: object keys sorted, arrays in order, so that the same value always gives the same
 * text. Hashed for idempotency (an invoice's and a refund's request) and for the Test connection
 * receipt.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function canonicalize(value: unknown): Json {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (value !== null && typeof value === "object") {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      // JSON.parse never yields undefined; a caller's object may, and JSON drops it too.
      if (member !== undefined) Object.defineProperty(out, key, { value: canonicalize(member), enumerable: true });
    }
    return out;
  }
  return value as Json;
}

/** Canonical JSON text: the same value always gives the same text, whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value));
}

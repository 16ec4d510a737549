import { createHmac } from "node:crypto";

/**
 * `X-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: HMAC-SHA256 over `{t}.{raw body}`, one
 * `v1` per signing secret still valid (the current one first, then one rotated away less than
 * 24 hours ago), so a receiver that knows either secret verifies the delivery.
 */
export function signatureHeader(secrets: readonly string[], rawBody: string, unixSeconds: number): string {
  const t = String(Math.floor(unixSeconds));
  return [`t=${t}`, ...secrets.map((secret) => `v1=${createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex")}`)].join(",");
}

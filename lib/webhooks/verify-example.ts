import { createHmac, timingSafeEqual } from "node:crypto";

/** True when one v1 of X-Signature is HMAC-SHA256(secret, `${t}.${rawBody}`) and t is within 5 minutes. */
export function verifyWebhook(rawBody: string, header: string, secret: string, nowSeconds = Date.now() / 1000): boolean {
  const pairs = header.split(",").map((part) => part.trim().split("=", 2));
  const t = pairs.find(([key]) => key === "t")?.[1] ?? "";
  if (!/^\d+$/.test(t) || Math.abs(nowSeconds - Number(t)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest();
  return pairs.some(([key, hex]) => key === "v1" && /^[0-9a-f]{64}$/.test(hex ?? "") && timingSafeEqual(Buffer.from(hex!, "hex"), expected));
}

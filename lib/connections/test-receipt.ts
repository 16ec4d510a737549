import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";
import { canonicalJson } from "@/lib/canonical-json";
import type { CredentialValues } from "@/lib/providers";

/**
 * Test connection before saving, then Save: the saved connection counts as tested (the setup
 * checklist's step, the connection's audit trail) when exactly what was saved passed the test.
 *
 * A passed test of unsaved values answers a receipt: an HMAC (key derived from AUTH_SECRET) over
 * the merchant, the provider, kind, mode and credentials as the form's schema parsed them, and an
 * expiry. The form sends it back with Save; the create action recomputes it from what it is saving.
 * The receipt holds no value (a MAC cannot be read back), only this server can make one, and one
 * made for other values, another merchant or more than RECEIPT_TTL_MS ago matches nothing: the
 * connection is then saved as untested, as it would be without a receipt.
 */
export const RECEIPT_TTL_MS = 30 * 60_000;

export type TestedValues = { provider: string; kind: string; mode: string; credentials: CredentialValues };

const RECEIPT = /^(\d{13})\.([A-Za-z0-9_-]{43})$/;

function receiptKey(): Buffer {
  return createHmac("sha256", authSecret()).update("connection-test-receipt").digest();
}

function mac(merchantId: string, values: TestedValues, expiresAt: number): Buffer {
  const text = canonicalJson({ merchantId, provider: values.provider, kind: values.kind, mode: values.mode, credentials: values.credentials, expiresAt });
  return createHmac("sha256", receiptKey()).update(text).digest();
}

/** The receipt of a passed test of these values for this merchant. */
export function testReceipt(merchantId: string, values: TestedValues, now = Date.now()): string {
  const expiresAt = now + RECEIPT_TTL_MS;
  return `${expiresAt}.${mac(merchantId, values, expiresAt).toString("base64url")}`;
}

/** Whether `receipt` is this server's receipt of a passed test of exactly these values for this merchant, still in time. */
export function isTestReceiptFor(receipt: string | undefined, merchantId: string, values: TestedValues, now = Date.now()): boolean {
  const match = receipt ? RECEIPT.exec(receipt) : null;
  if (!match) return false;
  const expiresAt = Number(match[1]);
  if (expiresAt < now || expiresAt > now + RECEIPT_TTL_MS) return false;
  return timingSafeEqual(Buffer.from(match[2]!, "base64url"), mac(merchantId, values, expiresAt));
}

import "server-only";
import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { credentialsKey } from "@/lib/vault/vault-key";
import type { Db } from "@/lib/db/client";
import { webhookEndpoints, webhookSecrets } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { decryptSecret, encryptSecret } from "@/lib/vault";

/**
 * Each endpoint's webhook signing secrets. Stored sealed by the vault; the plaintext leaves this
 * module only once, in the answer to the action that made it (the Webhooks page shows it once:
 * when the endpoint is added and when its secret is rolled), and to the signer. A roll keeps the
 * old secret signing for 24 hours, so receivers can switch without losing a delivery.
 */
export const SECRET_OVERLAP_HOURS = 24;

/** `whsec_` + 32 random bytes, base64url. */
function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** A new current secret for the endpoint, in the caller's transaction; returns it (plaintext, to show once). */
export async function insertSecret(tx: Tx | Db, merchantId: string, endpointId: string): Promise<string> {
  const secret = newSigningSecret();
  await tx.insert(webhookSecrets).values({ id: newId("whs"), merchantId, endpointId, sealed: encryptSecret(secret, credentialsKey()) });
  return secret;
}

/**
 * Roll: the endpoint's current secret retires in 24 hours (it keeps signing until then) and a new
 * one becomes current, with the endpoint's row locked so two rolls cannot both leave a current
 * secret. Null when the endpoint is not the merchant's.
 */
export async function rotateSigningSecret(db: Db, merchantId: string, endpointId: string): Promise<{ secret: string; previousRetiresAt: Date | null } | null> {
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)))
      .for("update");
    if (!endpoint) return null;
    const retiresAt = new Date(Date.now() + SECRET_OVERLAP_HOURS * 3600_000);
    const retired = await tx
      .update(webhookSecrets)
      .set({ retiresAt })
      .where(and(eq(webhookSecrets.endpointId, endpointId), isNull(webhookSecrets.retiresAt)))
      .returning({ id: webhookSecrets.id });
    const secret = await insertSecret(tx, merchantId, endpointId);
    return { secret, previousRetiresAt: retired.length > 0 ? retiresAt : null };
  });
}

/** Plaintext secrets that sign a delivery to the endpoint made at `now`: the current one first, then the retiring ones, newest first. */
export async function signingSecrets(db: Db, endpointId: string, now = new Date()): Promise<string[]> {
  const rows = await db
    .select({ sealed: webhookSecrets.sealed, retiresAt: webhookSecrets.retiresAt })
    .from(webhookSecrets)
    .where(and(eq(webhookSecrets.endpointId, endpointId), or(isNull(webhookSecrets.retiresAt), gt(webhookSecrets.retiresAt, now))))
    .orderBy(sql`${webhookSecrets.retiresAt} is not null`, desc(webhookSecrets.createdAt));
  const key = credentialsKey();
  return rows.map((row) => decryptSecret(row.sealed, key));
}

/** What the page shows about the secrets of the merchant's endpoints: never a secret, only when they were made and when old ones retire. */
export async function secretStatuses(db: Db, merchantId: string, now = new Date()): Promise<Map<string, { currentCreatedAt: Date | null; retiring: Date[] }>> {
  const rows = await db
    .select({ endpointId: webhookSecrets.endpointId, createdAt: webhookSecrets.createdAt, retiresAt: webhookSecrets.retiresAt })
    .from(webhookSecrets)
    .where(and(eq(webhookSecrets.merchantId, merchantId), or(isNull(webhookSecrets.retiresAt), gt(webhookSecrets.retiresAt, now))))
    .orderBy(desc(webhookSecrets.createdAt));
  const out = new Map<string, { currentCreatedAt: Date | null; retiring: Date[] }>();
  for (const row of rows) {
    if (!row.endpointId) continue;
    const entry = out.get(row.endpointId) ?? { currentCreatedAt: null, retiring: [] };
    if (row.retiresAt) entry.retiring.push(row.retiresAt);
    else entry.currentCreatedAt ??= row.createdAt;
    out.set(row.endpointId, entry);
  }
  return out;
}

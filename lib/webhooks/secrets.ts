import "server-only";
import { randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { credentialsKey } from "@/lib/connections/vault-key";
import type { Db } from "@/lib/db/client";
import { merchants, webhookSecrets } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { decryptSecret, encryptSecret } from "@/lib/vault";

/**
 * The merchant's webhook signing secrets. Stored sealed by the vault; the plaintext
 * leaves this module only once, in the answer to the action that made it (Settings shows it once),
 * and to the signer. A rotation keeps the old secret signing for 24 hours, so receivers can switch
 * without losing a delivery.
 */
export const SECRET_OVERLAP_HOURS = 24;

/** `whsec_` + 32 random bytes, base64url. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

async function insertSecret(tx: Tx | Db, merchantId: string): Promise<string> {
  const secret = newSigningSecret();
  await tx.insert(webhookSecrets).values({ id: newId("whs"), merchantId, sealed: encryptSecret(secret, credentialsKey()) });
  return secret;
}

/** One secret writer at a time per merchant (its row locked), so two first saves cannot both make a current secret. */
async function lockMerchant(tx: Tx, merchantId: string): Promise<void> {
  await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for("update");
}

/** The current secret's row (no retires_at), if any. */
export async function currentSecretRow(db: Db | Tx, merchantId: string) {
  const [row] = await db
    .select({ id: webhookSecrets.id, createdAt: webhookSecrets.createdAt })
    .from(webhookSecrets)
    .where(and(eq(webhookSecrets.merchantId, merchantId), isNull(webhookSecrets.retiresAt)))
    .orderBy(desc(webhookSecrets.createdAt))
    .limit(1);
  return row;
}

/** Makes the first secret when the merchant has none; returns it (plaintext, to show once) or null when one exists. */
export async function ensureSigningSecret(db: Db, merchantId: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    await lockMerchant(tx, merchantId);
    if (await currentSecretRow(tx, merchantId)) return null;
    return insertSecret(tx, merchantId);
  });
}

/**
 * Rotation: the current secret retires in 24 hours (it keeps signing until then) and a new one
 * becomes current. Returns the new secret (plaintext, to show once) and when the old one retires.
 */
export async function rotateSigningSecret(db: Db, merchantId: string): Promise<{ secret: string; previousRetiresAt: Date | null }> {
  return db.transaction(async (tx) => {
    await lockMerchant(tx, merchantId);
    const retiresAt = new Date(Date.now() + SECRET_OVERLAP_HOURS * 3600_000);
    const retired = await tx
      .update(webhookSecrets)
      .set({ retiresAt })
      .where(and(eq(webhookSecrets.merchantId, merchantId), isNull(webhookSecrets.retiresAt)))
      .returning({ id: webhookSecrets.id });
    const secret = await insertSecret(tx, merchantId);
    return { secret, previousRetiresAt: retired.length > 0 ? retiresAt : null };
  });
}

/** Plaintext secrets that sign a delivery made at `now`: the current one first, then the retiring ones, newest first. */
export async function signingSecrets(db: Db, merchantId: string, now = new Date()): Promise<string[]> {
  const rows = await db
    .select({ sealed: webhookSecrets.sealed, retiresAt: webhookSecrets.retiresAt })
    .from(webhookSecrets)
    .where(and(eq(webhookSecrets.merchantId, merchantId), or(isNull(webhookSecrets.retiresAt), gt(webhookSecrets.retiresAt, now))))
    .orderBy(sql`${webhookSecrets.retiresAt} is not null`, desc(webhookSecrets.createdAt));
  const key = credentialsKey();
  return rows.map((row) => decryptSecret(row.sealed, key));
}

/** What Settings shows about the secrets: never a secret, only when they were made and when the old ones retire. */
export async function secretStatus(db: Db, merchantId: string, now = new Date()): Promise<{ currentCreatedAt: Date | null; retiring: Date[] }> {
  const rows = await db
    .select({ createdAt: webhookSecrets.createdAt, retiresAt: webhookSecrets.retiresAt })
    .from(webhookSecrets)
    .where(and(eq(webhookSecrets.merchantId, merchantId), or(isNull(webhookSecrets.retiresAt), gt(webhookSecrets.retiresAt, now))))
    .orderBy(desc(webhookSecrets.createdAt));
  return {
    currentCreatedAt: rows.find((row) => row.retiresAt === null)?.createdAt ?? null,
    retiring: rows.flatMap((row) => (row.retiresAt ? [row.retiresAt] : [])),
  };
}

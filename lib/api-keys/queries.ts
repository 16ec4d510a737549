import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys, merchants } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import type { Merchant } from "@/lib/merchants/queries";

/** Keys carry 256 random bits; the prefix makes a leaked key easy to recognise in scans. */
const KEY_PREFIX = "pok_";

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export type ApiKeySummary = {
  id: string;
  name: string;
  lastFour: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const summaryColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  lastFour: apiKeys.lastFour,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
};

/** Creates a key and returns it in full: the only time it is ever shown. */
export async function createApiKey(
  db: Db,
  input: { merchantId: string; name: string; createdBy?: string },
): Promise<{ key: string; summary: ApiKeySummary }> {
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId("key"),
      merchantId: input.merchantId,
      name: input.name,
      hash: hashApiKey(key),
      lastFour: key.slice(-4),
      createdBy: input.createdBy ?? null,
    })
    .returning(summaryColumns);
  return { key, summary: row! };
}

export async function listApiKeys(db: Db, merchantId: string): Promise<ApiKeySummary[]> {
  return db.select(summaryColumns).from(apiKeys).where(eq(apiKeys.merchantId, merchantId)).orderBy(desc(apiKeys.createdAt));
}

export async function revokeApiKey(db: Db, merchantId: string, id: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, merchantId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** Last-use writes are throttled to one a minute per key so the hot path stays a single read. */
const LAST_USED_RESOLUTION_MS = 60_000;

export async function authenticateApiKey(db: Db, key: string): Promise<{ merchant: Merchant; keyId: string } | undefined> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return undefined;
  const [row] = await db
    .select({ keyId: apiKeys.id, revokedAt: apiKeys.revokedAt, lastUsedAt: apiKeys.lastUsedAt, merchant: merchants })
    .from(apiKeys)
    .innerJoin(merchants, eq(apiKeys.merchantId, merchants.id))
    .where(eq(apiKeys.hash, hashApiKey(key)))
    .limit(1);
  if (!row || row.revokedAt) return undefined;
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.keyId));
  }
  return { merchant: row.merchant, keyId: row.keyId };
}

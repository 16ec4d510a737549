import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { invalidation } from "@/lib/cache/invalidation";
import { sharedCache } from "@/lib/cache/shared-cache";
import type { Db } from "@/lib/db/client";
import { apiKeys, merchants, users } from "@/lib/db/schema";
import { isSessionCredential, verifySessionCredential } from "./session-credential";
import { newId } from "@/lib/ids";
import type { Merchant } from "@/lib/identity/membership";

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
  await forgetKey(id);
  return rows.length > 0;
}

/** Last-use writes are throttled to one a minute per key so the hot path stays a single read. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Authenticated keys are remembered for a few seconds so an API call costs no key lookup.
 * Revoking forgets the key at once in this process (the cache is shared with server.ts) and,
 * through a notification, in every other process on the same PostgreSQL (lib/cache/invalidation.ts).
 */
export const API_KEY_CACHE_TTL_MS = 10_000;
type CachedKey = { merchant: Merchant; keyId: string; lastUsedAt: Date | null };
const keyCache = sharedCache<CachedKey>("api-keys", API_KEY_CACHE_TTL_MS, { acrossProcesses: true });
/** Moves on at every revoke, so a lookup that raced a revoke does not put the key back. */
const revokes = globalThis as unknown as { __apiKeyRevokeEpoch?: number };
const forgetKey = invalidation("api-keys:revoked", (keyId) => {
  revokes.__apiKeyRevokeEpoch = (revokes.__apiKeyRevokeEpoch ?? 0) + 1;
  keyCache.deleteWhere((_hash, cached) => cached.keyId === keyId);
});

/**
 * A merchant's cached row changed (its name; the columns the API decides by, such as live pins and
 * the invoice lifetime, are read fresh): every process forgets the keys it remembers for it.
 */
export const forgetMerchantKeys = invalidation("api-keys:merchant", (merchantId) => {
  keyCache.deleteWhere((_hash, cached) => cached.merchant.id === merchantId);
});

async function lookupKey(db: Db, hash: string): Promise<CachedKey | undefined> {
  const [row] = await db
    .select({ keyId: apiKeys.id, revokedAt: apiKeys.revokedAt, lastUsedAt: apiKeys.lastUsedAt, merchant: merchants })
    .from(apiKeys)
    .innerJoin(merchants, eq(apiKeys.merchantId, merchants.id))
    .where(eq(apiKeys.hash, hash))
    .limit(1);
  return row && !row.revokedAt ? { merchant: row.merchant, keyId: row.keyId, lastUsedAt: row.lastUsedAt } : undefined;
}

export type ApiCaller = {
  merchant: Merchant;
  keyId: string;
  testOnly: boolean;
  /** A composer session credential rather than a stored API key: accepted by the invoice API only. */
  session: boolean;
};

/** A stored API key, or the composer's short-lived session credential (session-credential.ts). */
export async function authenticateApiKey(db: Db, key: string): Promise<ApiCaller | undefined> {
  if (isSessionCredential(key)) return authenticateSessionCredential(db, key);
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return undefined;
  const hash = hashApiKey(key);
  const cached = keyCache.get(hash);
  const epoch = revokes.__apiKeyRevokeEpoch ?? 0;
  const found = cached ? cached.value : await lookupKey(db, hash);
  // Unknown keys are not remembered: random guesses must not push real keys out of the cache.
  if (!cached && found && (revokes.__apiKeyRevokeEpoch ?? 0) === epoch) keyCache.set(hash, found);
  if (!found) return undefined;
  const now = new Date();
  if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    found.lastUsedAt = now;
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, found.keyId));
  }
  return { merchant: found.merchant, keyId: found.keyId, testOnly: false, session: false };
}

async function authenticateSessionCredential(db: Db, token: string): Promise<ApiCaller | undefined> {
  const claims = verifySessionCredential(token);
  if (!claims) return undefined;
  // The person must still belong to the merchant with the role the credential was minted for.
  const [row] = await db
    .select({ merchant: merchants, role: users.role })
    .from(users)
    .innerJoin(merchants, eq(users.merchantId, merchants.id))
    .where(and(eq(users.id, claims.userId), eq(users.merchantId, claims.merchantId)))
    .limit(1);
  if (!row) return undefined;
  return { merchant: row.merchant, keyId: `session:${claims.userId}`, testOnly: claims.testOnly || row.role !== "owner", session: true };
}

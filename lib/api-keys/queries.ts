import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { invalidation } from "@/lib/cache/invalidation";
import { sharedCache } from "@/lib/cache/shared-cache";
import type { Db } from "@/lib/db/client";
import { apiKeys, merchants, users, type Role } from "@/lib/db/schema";
import { canInMode } from "@/lib/identity/permissions";
import { isSessionCredential, verifySessionCredential } from "./session-credential";
import { newId } from "@/lib/ids";
import type { Merchant } from "@/lib/identity/membership";
import { logger } from "@/lib/logger";
import type { Mode } from "@/lib/providers";
import { ROLL_GRACE_SECONDS, type ApiKeyScope, type RollGrace } from "./choices";

/**
 * Keys carry 256 random bits; the prefix makes a leaked key easy to recognise in scans and says its
 * mode (`pok_test_…`, `pok_live_…`). Keys made before modes existed are plain `pok_…` and are test keys.
 */
const KEY_PREFIX = "pok_";
const KEY_PREFIXES: Readonly<Record<Mode, string>> = { test: "pok_test_", live: "pok_live_" };

function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export type ApiKeySummary = {
  id: string;
  name: string;
  /** What the key starts with (`pok_test_`, `pok_live_`, or `pok_` for a key older than modes). */
  prefix: string;
  lastFour: string;
  mode: Mode;
  scope: ApiKeyScope;
  createdAt: Date;
  /** The person who made it (or rolled the key it replaced); null for keys made by a command. */
  createdByName: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** Set once the key was rolled: it is refused from then on. */
  expiresAt: Date | null;
  rolledTo: string | null;
};

const creators = alias(users, "api_key_creators");

const summaryColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  lastFour: apiKeys.lastFour,
  mode: apiKeys.mode,
  scope: apiKeys.scope,
  createdAt: apiKeys.createdAt,
  createdBy: apiKeys.createdBy,
  lastUsedAt: apiKeys.lastUsedAt,
  revokedAt: apiKeys.revokedAt,
  expiresAt: apiKeys.expiresAt,
  rolledTo: apiKeys.rolledTo,
};

type NewKey = { merchantId: string; name: string; mode?: Mode; scope?: ApiKeyScope; createdBy?: string | null };

function newKeyValues(input: NewKey) {
  const mode = input.mode ?? "test";
  const prefix = KEY_PREFIXES[mode];
  const key = prefix + randomBytes(32).toString("base64url");
  const values = {
    id: newId("key"),
    merchantId: input.merchantId,
    name: input.name,
    hash: hashApiKey(key),
    prefix,
    lastFour: key.slice(-4),
    mode,
    scope: input.scope ?? "full",
    createdBy: input.createdBy ?? null,
  };
  return { key, values };
}

/**
 * Creates a key and returns it in full: the only time it is ever shown. Test mode and full scope
 * unless asked otherwise; a live key is always a deliberate choice.
 */
export async function createApiKey(db: Db, input: NewKey): Promise<{ key: string; summary: ApiKeySummary }> {
  const { key, values } = newKeyValues(input);
  await db.insert(apiKeys).values(values);
  const summary = await findApiKey(db, input.merchantId, values.id);
  return { key, summary: summary! };
}

async function findApiKey(db: Db, merchantId: string, id: string): Promise<ApiKeySummary | undefined> {
  const [row] = await selectSummaries(db).where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, merchantId)));
  return row && toSummary(row);
}

function selectSummaries(db: Db) {
  return db
    .select({ ...summaryColumns, createdByName: creators.name })
    .from(apiKeys)
    .leftJoin(creators, and(eq(creators.id, apiKeys.createdBy), eq(creators.merchantId, apiKeys.merchantId)));
}

function toSummary(row: Awaited<ReturnType<ReturnType<typeof selectSummaries>["execute"]>>[number]): ApiKeySummary {
  const { createdBy: _createdBy, ...summary } = row;
  return summary;
}

export async function listApiKeys(db: Db, merchantId: string): Promise<ApiKeySummary[]> {
  const rows = await selectSummaries(db).where(eq(apiKeys.merchantId, merchantId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(toSummary);
}

export type RollResult = { key: string; summary: ApiKeySummary; oldExpiresAt: Date };

/**
 * Rolls a key: a new key with the same name, mode and scope (shown once), and the old one keeps
 * working until `grace` has passed (`now`: refused at once). A revoked, expired or already rolled
 * key cannot be rolled (roll its replacement instead); undefined then, as for another merchant's id.
 */
export async function rollApiKey(
  db: Db,
  input: { merchantId: string; id: string; grace: RollGrace; createdBy?: string | null },
  now = new Date(),
): Promise<RollResult | undefined> {
  const oldExpiresAt = new Date(now.getTime() + ROLL_GRACE_SECONDS[input.grace] * 1000);
  const rolled = await db.transaction(async (tx) => {
    const [old] = await tx
      .select({ name: apiKeys.name, mode: apiKeys.mode, scope: apiKeys.scope, expiresAt: apiKeys.expiresAt })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, input.id), eq(apiKeys.merchantId, input.merchantId), isNull(apiKeys.revokedAt), isNull(apiKeys.rolledTo)))
      .for("update");
    if (!old || (old.expiresAt && old.expiresAt <= now)) return undefined;
    const { key, values } = newKeyValues({ merchantId: input.merchantId, name: old.name, mode: old.mode, scope: old.scope, createdBy: input.createdBy });
    await tx.insert(apiKeys).values(values);
    await tx.update(apiKeys).set({ expiresAt: oldExpiresAt, rolledTo: values.id }).where(eq(apiKeys.id, input.id));
    return { key, id: values.id };
  });
  if (!rolled) return undefined;
  // Every process forgets the old key, so its new end is read at its next use.
  await forgetKey(input.id);
  const summary = await findApiKey(db, input.merchantId, rolled.id);
  return { key: rolled.key, summary: summary!, oldExpiresAt };
}

/** A key's mode, for the check of who may manage it; undefined for another merchant's or an unknown key. */
export async function apiKeyMode(db: Db, merchantId: string, id: string): Promise<Mode | undefined> {
  const [row] = await db
    .select({ mode: apiKeys.mode })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.merchantId, merchantId)))
    .limit(1);
  return row?.mode;
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
const API_KEY_CACHE_TTL_MS = 10_000;
type CachedKey = {
  merchant: Merchant;
  keyId: string;
  lastUsedAt: Date | null;
  mode: Mode;
  readOnly: boolean;
  expiresAt: Date | null;
};
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
    .select({
      keyId: apiKeys.id,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      mode: apiKeys.mode,
      scope: apiKeys.scope,
      expiresAt: apiKeys.expiresAt,
      merchant: merchants,
    })
    .from(apiKeys)
    .innerJoin(merchants, eq(apiKeys.merchantId, merchants.id))
    .where(eq(apiKeys.hash, hash))
    .limit(1);
  if (!row || row.revokedAt) return undefined;
  return {
    merchant: row.merchant,
    keyId: row.keyId,
    lastUsedAt: row.lastUsedAt,
    mode: row.mode,
    readOnly: row.scope === "read_only",
    expiresAt: row.expiresAt,
  };
}

export type ApiCaller = {
  merchant: Merchant;
  keyId: string;
  /** The only invoice mode a stored key creates and reads; undefined for the composer's session credential (see testOnly). */
  keyMode: Mode | undefined;
  /** A read-only key: GET and HEAD only. */
  readOnly: boolean;
  /** A support member's composer credential: creates and changes test-mode invoices only, reads both. */
  testOnly: boolean;
  /** A composer session credential rather than a stored API key: accepted by the invoice API only. */
  session: boolean;
  /** The person's role, for a session credential: what the route needs of the permission table is checked against it. */
  role?: Role;
};

/**
 * Records that a key was used, at most once a minute per key and process, without holding up the
 * request: the write is not awaited (the create path is benchmarked), and a failed write is logged.
 */
function noteUse(db: Db, found: CachedKey, now: Date): void {
  if (found.lastUsedAt && now.getTime() - found.lastUsedAt.getTime() <= LAST_USED_RESOLUTION_MS) return;
  found.lastUsedAt = now;
  db.update(apiKeys)
    .set({ lastUsedAt: now })
    .where(eq(apiKeys.id, found.keyId))
    .then(
      () => undefined,
      (error: unknown) => logger.warn("api key last-used write failed", { keyId: found.keyId, error: error instanceof Error ? error.message : String(error) }),
    );
}

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
  // A rolled key past its grace period is refused like a revoked one.
  if (found.expiresAt && found.expiresAt.getTime() <= now.getTime()) return undefined;
  noteUse(db, found, now);
  return { merchant: found.merchant, keyId: found.keyId, keyMode: found.mode, readOnly: found.readOnly, testOnly: false, session: false };
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
  return {
    merchant: row.merchant,
    keyId: `session:${claims.userId}`,
    keyMode: undefined,
    readOnly: false,
    testOnly: claims.testOnly || !canInMode(row.role, "invoices.compose", "live"),
    session: true,
    role: row.role,
  };
}

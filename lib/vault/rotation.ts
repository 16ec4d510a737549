import "server-only";
import { and, asc, eq, gt, inArray, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db/client";
import { connections, generatedKeys, paymentMethods, users, webhookSecrets } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { keyId, resealSecret } from "./crypto-box";
import { keyringOf, type VaultKeys } from "./keyring";
import { isVaultError } from "./vault-error";

/**
 * Key rotation (docs/deploy.md "Rotating the credentials key"): every column the vault seals, and
 * the pass that seals their values again under the current key. Rows are re-sealed one by one with
 * a compare-and-set (`where id = … and value = <the token read>`), so the pass is idempotent, safe
 * to run on several instances at once, and never overwrites a value someone saved meanwhile.
 */

type SealedColumn = { name: string; table: PgTable; id: PgColumn; column: PgColumn; property: string };

/** Every value the vault seals at rest (grep encryptSecret / encryptJson when adding one). */
const SEALED_COLUMNS: readonly SealedColumn[] = [
  { name: "connections.secret_credentials", table: connections, id: connections.id, column: connections.secretCredentials, property: "secretCredentials" },
  { name: "generated_keys.private_key", table: generatedKeys, id: generatedKeys.id, column: generatedKeys.privateKey, property: "privateKey" },
  { name: "webhook_secrets.sealed", table: webhookSecrets, id: webhookSecrets.id, column: webhookSecrets.sealed, property: "sealed" },
  { name: "payment_methods.token_sealed", table: paymentMethods, id: paymentMethods.id, column: paymentMethods.tokenSealed, property: "tokenSealed" },
  // Two-factor secrets (lib/identity/mfa): null for people without one, which the passes skip.
  { name: "users.totp_secret", table: users, id: users.id, column: users.totpSecret, property: "totpSecret" },
  { name: "users.totp_pending_secret", table: users, id: users.id, column: users.totpPendingSecret, property: "totpPendingSecret" },
];

/** `v2.<key id>.`: the start of every token sealed under that key. */
const PREFIX_LENGTH = 12;
const prefixOf = (id: string) => `v2.${id}.`;
const LEGACY_PREFIX = "v1.";

/** Values not sealed under the current key (to re-seal, or under a key this process does not hold). */
function notUnder(site: SealedColumn, currentId: string): SQL {
  return sql`left(${site.column}, ${PREFIX_LENGTH}) <> ${prefixOf(currentId)}`;
}

/** Values this process can re-seal: under a previous key, or v1 (which names no key). */
function underOldKeys(site: SealedColumn, previousIds: readonly string[]): SQL {
  const legacy = sql`left(${site.column}, ${LEGACY_PREFIX.length}) = ${LEGACY_PREFIX}`;
  if (previousIds.length === 0) return legacy;
  return or(legacy, inArray(sql`left(${site.column}, ${PREFIX_LENGTH})`, previousIds.map(prefixOf)))!;
}

type ColumnStatus = {
  column: string;
  /** Sealed under CREDENTIALS_KEY. */
  current: number;
  /** Sealed under a key of CREDENTIALS_KEY_PREVIOUS, by key id: the pass re-seals these. */
  previous: Record<string, number>;
  /** v1 values, sealed before tokens named their key: the pass re-seals these too. */
  legacy: number;
  /** Sealed under a key this process does not hold, by key id: nothing here can open them. */
  unknown: Record<string, number>;
};

export type RotationStatus = {
  currentKeyId: string;
  previousKeyIds: string[];
  columns: ColumnStatus[];
  /** Values still to re-seal (previous + legacy); once 0, CREDENTIALS_KEY_PREVIOUS can go. */
  remaining: number;
  /** Values under keys not configured at all. */
  unknown: number;
};

/** How many values each key seals, by column; key ids only, never a key or a value. */
export async function rotationStatus(db: Db, keys: VaultKeys): Promise<RotationStatus> {
  const ring = keyringOf(keys);
  const currentKeyId = keyId(ring.current);
  const previousKeyIds = ring.previous.map(keyId);
  const columns: ColumnStatus[] = [];
  for (const site of SEALED_COLUMNS) {
    const rows = await db
      .select({
        kid: sql<string>`case when left(${site.column}, 3) = 'v2.' then split_part(${site.column}, '.', 2) else '' end`,
        count: sql<number>`count(*)::int`,
      })
      .from(site.table)
      .where(sql`${site.column} is not null`)
      .groupBy(sql`1`);
    const status: ColumnStatus = { column: site.name, current: 0, previous: {}, legacy: 0, unknown: {} };
    for (const { kid, count } of rows) {
      const n = Number(count);
      if (kid === "") status.legacy += n;
      else if (kid === currentKeyId) status.current += n;
      else if (previousKeyIds.includes(kid)) status.previous[kid] = n;
      else status.unknown[kid] = n;
    }
    columns.push(status);
  }
  const sum = (record: Record<string, number>) => Object.values(record).reduce((a, b) => a + b, 0);
  return {
    currentKeyId,
    previousKeyIds,
    columns,
    remaining: columns.reduce((total, c) => total + c.legacy + sum(c.previous), 0),
    unknown: columns.reduce((total, c) => total + sum(c.unknown), 0),
  };
}

/** True when some value is still under a previous key or in the v1 format: the sweep's cheap check. */
export async function hasValuesToReseal(db: Db, keys: VaultKeys): Promise<boolean> {
  const ring = keyringOf(keys);
  const previousIds = ring.previous.map(keyId);
  for (const site of SEALED_COLUMNS) {
    const [row] = await db
      .select({ one: sql<number>`1` })
      .from(site.table)
      .where(underOldKeys(site, previousIds))
      .limit(1);
    if (row) return true;
  }
  return false;
}

export type ResealResult = {
  /** Values now sealed under the current key. */
  resealed: number;
  /** Values changed by someone else between the read and the write (already under the current key then). */
  changedMeanwhile: number;
  /** Values no configured key opens (unknown key id, or damaged), by column: left as they are. */
  unreadable: Record<string, number>;
};

export type ResealOptions = { batchSize?: number };

/** For the log, whose redaction hides any field named like `*credentials*`: column names go in values. */
export function unreadableForLog(result: ResealResult): { column: string; count: number }[] {
  return Object.entries(result.unreadable).map(([column, count]) => ({ column, count }));
}

/**
 * Seals every value not under the current key again under it, in batches of `batchSize` rows per
 * column (ordered by id, so the walk ends even while rows are added). What no key opens is counted
 * and left alone, never overwritten.
 */
export async function resealAll(db: Db, keys: VaultKeys, options: ResealOptions = {}): Promise<ResealResult> {
  const ring = keyringOf(keys);
  const currentId = keyId(ring.current);
  const batchSize = Math.max(1, options.batchSize ?? 100);
  const result: ResealResult = { resealed: 0, changedMeanwhile: 0, unreadable: {} };
  for (const site of SEALED_COLUMNS) {
    let after = "";
    for (;;) {
      const rows = (await db
        .select({ id: site.id, value: site.column })
        .from(site.table)
        .where(and(notUnder(site, currentId), gt(site.id, after)))
        .orderBy(asc(site.id))
        .limit(batchSize)) as { id: string; value: string }[];
      for (const row of rows) {
        let sealed: string | null;
        try {
          sealed = resealSecret(row.value, ring);
        } catch (error) {
          if (!isVaultError(error)) throw error;
          result.unreadable[site.name] = (result.unreadable[site.name] ?? 0) + 1;
          continue;
        }
        if (sealed === null) continue;
        const updated = await db
          .update(site.table)
          .set({ [site.property]: sealed })
          .where(and(eq(site.id, row.id), eq(site.column, row.value)))
          .returning({ id: site.id });
        if (updated.length > 0) result.resealed += 1;
        else result.changedMeanwhile += 1;
      }
      if (rows.length < batchSize) break;
      after = rows.at(-1)!.id;
    }
  }
  const unreadable = Object.values(result.unreadable).reduce((a, b) => a + b, 0);
  if (unreadable > 0) {
    logger.warn("credentials re-seal left values no configured key opens", { keyId: currentId, unreadable: unreadableForLog(result) });
  }
  return result;
}

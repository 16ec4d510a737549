import "server-only";
import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sandboxRecords } from "@/lib/db/schema";
import { redact } from "@/lib/logger";
import { isSafeText } from "@/lib/text-safety";

/**
 * The sandboxes' own memory: what each simulated provider received and decided, keyed by the
 * provider's reference. Everything that goes in is scrubbed first (card numbers masked to
 * 6 + last 4; request and response also lose values under secret-looking keys), so a record can
 * be shown on the invoice page's attempt log as it is.
 *
 * Every record belongs to the account (test-mode connection) whose credentials made it, and an
 * idempotency key names a record only within that account: merchants share public identifiers
 * (a merchant ID, a shop login), so a key repeated from another account is a fresh request of
 * that account, never a way to read or steer the first one.
 */
export type SandboxRecord = typeof sandboxRecords.$inferSelect;

export type NewSandboxRecord = {
  provider: string;
  /** The account that made the request; the record is its alone. */
  connectionId: string;
  /** "payment", "payout", "payout_part", … as the sandbox names it. */
  operation: string;
  reference: string;
  idempotencyKey?: string | null;
  amountMinor?: bigint | null;
  currency?: string | null;
  status: string;
  details?: Record<string, unknown>;
  request?: unknown;
  response?: unknown;
};

export type SandboxRecordPatch = {
  status?: string;
  amountMinor?: bigint | null;
  /** Merged into the stored details (top-level keys replaced). */
  details?: Record<string, unknown>;
  response?: unknown;
};

const CARD_NUMBER = /\b(\d{6})\d{3,9}(\d{4})\b/g;

/** Card digits masked, keys kept: details are the sandbox's own state (tokenize flags, 3-D Secure results). */
function maskCards(value: unknown): unknown {
  if (typeof value === "string") return value.replace(CARD_NUMBER, "$1******$2");
  if (Array.isArray(value)) return value.map(maskCards);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskCards(v)]));
  return value;
}

const wire = (value: unknown) => (value === undefined ? null : redact(value));

/**
 * Stores what the sandbox received. A record of the same account with the same idempotency key is
 * returned as it is: a retried request is the same payment, never a second one.
 */
export async function saveRecord(db: Db, record: NewSandboxRecord): Promise<SandboxRecord> {
  const [inserted] = await db
    .insert(sandboxRecords)
    .values({
      id: `sbx_${randomBytes(16).toString("base64url")}`,
      provider: record.provider,
      connectionId: record.connectionId,
      operation: record.operation,
      reference: record.reference,
      idempotencyKey: record.idempotencyKey ?? null,
      amountMinor: record.amountMinor ?? null,
      currency: record.currency ?? null,
      status: record.status,
      details: maskCards(record.details ?? {}) as Record<string, unknown>,
      request: wire(record.request),
      response: wire(record.response),
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) return inserted;
  const existing =
    (record.idempotencyKey ? await findRecordByIdempotencyKey(db, record.provider, record.connectionId, record.idempotencyKey) : undefined) ??
    (await findRecordByReference(db, record.provider, record.reference));
  // References are drawn at random (a fault record's names its own connection): only this account's own record can stand in the way.
  if (!existing || existing.connectionId !== record.connectionId) throw new Error(`sandbox record of ${record.provider} conflicted but cannot be read`);
  return existing;
}

/**
 * A reference or key PostgreSQL cannot hold (a NUL from a crafted 3-D Secure form or a provider's
 * request) names no record: answered as "none" rather than a failed query.
 */
const storable = (...values: string[]) => values.every(isSafeText);

/**
 * Any account's record: a reference is drawn at random and handed only to the account that made
 * the record (and, for 3-D Secure, to its customer); a status read by reference checks the account.
 */
export async function findRecordByReference(db: Db, provider: string, reference: string): Promise<SandboxRecord | undefined> {
  if (!storable(provider, reference)) return undefined;
  const [row] = await db
    .select()
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.provider, provider), eq(sandboxRecords.reference, reference)));
  return row;
}

/** The account's record for an idempotency key: another account's record with the same key is not its. */
export async function findRecordByIdempotencyKey(db: Db, provider: string, connectionId: string, key: string): Promise<SandboxRecord | undefined> {
  if (!storable(provider, connectionId, key)) return undefined;
  const [row] = await db
    .select()
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.provider, provider), eq(sandboxRecords.connectionId, connectionId), eq(sandboxRecords.idempotencyKey, key)));
  return row;
}

/** Changes a record's status, amount, details (merged) or stored answer; undefined when there is none. */
export async function updateRecord(db: Db, provider: string, reference: string, patch: SandboxRecordPatch): Promise<SandboxRecord | undefined> {
  const details = patch.details ? JSON.stringify(maskCards(patch.details)) : undefined;
  const [row] = await db
    .update(sandboxRecords)
    .set({
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.amountMinor !== undefined ? { amountMinor: patch.amountMinor } : {}),
      ...(details !== undefined ? { details: sql`${sandboxRecords.details} || ${details}::jsonb` } : {}),
      ...(patch.response !== undefined ? { response: wire(patch.response) } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(sandboxRecords.provider, provider), eq(sandboxRecords.reference, reference)))
    .returning();
  return row;
}

/** What the sandbox received from one connection, oldest first (its fault switch, faults.ts, is not a request). */
export async function listRecordsForConnection(db: Db, connectionId: string): Promise<SandboxRecord[]> {
  return db
    .select()
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.connectionId, connectionId), ne(sandboxRecords.operation, "fault")))
    .orderBy(asc(sandboxRecords.createdAt), asc(sandboxRecords.id));
}

/** The records behind some provider references (an invoice's attempts), oldest first. */
export async function listRecordsByReferences(db: Db, provider: string, references: readonly string[]): Promise<SandboxRecord[]> {
  if (references.length === 0) return [];
  return db
    .select()
    .from(sandboxRecords)
    .where(and(eq(sandboxRecords.provider, provider), inArray(sandboxRecords.reference, [...references])))
    .orderBy(asc(sandboxRecords.createdAt), asc(sandboxRecords.id));
}

/**
 * The records with these idempotency keys (an invoice's attempt ids), any provider and account:
 * the caller keeps those of each attempt's own connection.
 */
export async function listRecordsByIdempotencyKeys(db: Db, keys: readonly string[]): Promise<SandboxRecord[]> {
  if (keys.length === 0) return [];
  return db
    .select()
    .from(sandboxRecords)
    .where(inArray(sandboxRecords.idempotencyKey, [...keys]))
    .orderBy(asc(sandboxRecords.createdAt), asc(sandboxRecords.id));
}

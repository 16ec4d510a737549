import "server-only";
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/lib/db/client";
import { riskAttempts, riskBlocklist, riskSettings } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import { recordAudit, type Actor } from "@/lib/audit/record";
import { DEFAULT_RISK_SETTINGS, riskSettingsSchema, type RiskSettings } from "./settings";
import { compileBlocklist, normalizeBlocklistValue, type BlocklistEntry, type BlocklistKind, type BlocklistMatcher } from "./blocklist";
import type { PastAttempt } from "./velocity";
import { BLOCKLIST_ID } from "@/lib/ids/patterns";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Reader = Db | Tx;
export type Mode = "test" | "live";

/** The merchant's limits: the saved ones over the defaults (a limit added later takes its default). */
export async function getRiskSettings(db: Reader, merchantId: string): Promise<RiskSettings> {
  const [row] = await db.select({ settings: riskSettings.settings }).from(riskSettings).where(eq(riskSettings.merchantId, merchantId)).limit(1);
  const parsed = riskSettingsSchema.safeParse({ ...DEFAULT_RISK_SETTINGS, ...(row?.settings ?? {}) });
  return parsed.success ? parsed.data : DEFAULT_RISK_SETTINGS;
}

/** Saves the limits (both modes share them) with an audit row naming what changed, in one transaction. */
export async function saveRiskSettings(db: Db, scope: { merchantId: string; actor: Actor }, settings: RiskSettings): Promise<RiskSettings> {
  return db.transaction(async (tx) => {
    const before = await getRiskSettings(tx, scope.merchantId);
    await tx
      .insert(riskSettings)
      .values({ merchantId: scope.merchantId, settings })
      .onConflictDoUpdate({ target: riskSettings.merchantId, set: { settings, version: sql`${riskSettings.version} + 1`, updatedAt: new Date() } });
    const changed = (Object.keys(settings) as (keyof RiskSettings)[]).filter((key) => before[key] !== settings[key]);
    await recordAudit(tx as unknown as Db, {
      merchantId: scope.merchantId,
      actor: scope.actor,
      action: "risk.settings_updated",
      target: { type: "risk_settings", id: scope.merchantId },
      summary: changed.map((key) => `${key} ${before[key]} → ${settings[key]}`).join(", ") || "no change",
      changes: changed,
    });
    return settings;
  });
}

/**
 * A change of the blocklists raises the merchant's rules version (lib/risk/check.ts keeps the rules
 * it read while the version stands), in the change's transaction; a merchant without saved limits
 * gets a row holding none, which reads as the defaults.
 */
async function raiseRulesVersion(tx: Tx, merchantId: string): Promise<void> {
  await tx
    .insert(riskSettings)
    .values({ merchantId, settings: {}, version: 1 })
    .onConflictDoUpdate({ target: riskSettings.merchantId, set: { version: sql`${riskSettings.version} + 1` } });
}

export type BlocklistView = { id: string; kind: BlocklistKind; label: string; note: string; createdBy: string; createdAt: Date; testMode: boolean };

const listColumns = {
  id: riskBlocklist.id,
  kind: riskBlocklist.kind,
  label: riskBlocklist.label,
  note: riskBlocklist.note,
  createdBy: riskBlocklist.createdBy,
  createdAt: riskBlocklist.createdAt,
  testMode: riskBlocklist.testMode,
};

/** The merchant's entries in one mode, newest first (at most 500: a list beyond that is a data set, not a blocklist). */
export async function listBlocklist(db: Reader, merchantId: string, mode: Mode): Promise<BlocklistView[]> {
  return db
    .select(listColumns)
    .from(riskBlocklist)
    .where(and(eq(riskBlocklist.merchantId, merchantId), eq(riskBlocklist.testMode, mode === "test")))
    .orderBy(desc(riskBlocklist.createdAt), desc(riskBlocklist.id))
    .limit(500);
}

export async function findBlocklistEntry(db: Reader, merchantId: string, mode: Mode, id: string): Promise<BlocklistView | undefined> {
  // No entry has another shape, and odd bytes (NUL) never reach the database.
  if (!BLOCKLIST_ID.test(id)) return undefined;
  const [row] = await db
    .select(listColumns)
    .from(riskBlocklist)
    .where(and(eq(riskBlocklist.merchantId, merchantId), eq(riskBlocklist.testMode, mode === "test"), eq(riskBlocklist.id, id)))
    .limit(1);
  return row;
}

/** What the checks match against: every entry of the merchant's mode (values, never shown). */
export async function blocklistValues(db: Reader, merchantId: string, mode: Mode): Promise<BlocklistEntry[]> {
  return db
    .select({ kind: riskBlocklist.kind, value: riskBlocklist.value })
    .from(riskBlocklist)
    .where(and(eq(riskBlocklist.merchantId, merchantId), eq(riskBlocklist.testMode, mode === "test")))
    .limit(5000);
}

/**
 * The blocklists a create reads, made ready for matching (`compileBlocklist`) and kept for a few
 * seconds per merchant and mode, so the create path stays one routing query and one insert and
 * matches by lookup; a change on this instance clears it at once, one on another instance reaches
 * creates here within the few seconds (Pay reads the rules version every time: lib/risk/check.ts).
 * Null when the mode has no entry.
 */
const CREATE_CACHE_MS = 5_000;
const createCache = globalThis as unknown as { __riskCreateCache?: Map<string, { at: number; match: BlocklistMatcher | null }> };

function forgetBlocklistCache(merchantId: string): void {
  for (const key of createCache.__riskCreateCache?.keys() ?? []) if (key.startsWith(`${merchantId}:`)) createCache.__riskCreateCache!.delete(key);
}

export async function cachedBlocklist(db: Db, merchantId: string, mode: Mode): Promise<BlocklistMatcher | null> {
  const cache = (createCache.__riskCreateCache ??= new Map());
  const key = `${merchantId}:${mode}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < CREATE_CACHE_MS) return hit.match;
  const entries = await blocklistValues(db, merchantId, mode);
  const match = entries.length > 0 ? compileBlocklist(entries) : null;
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { at: Date.now(), match });
  return match;
}

type AddEntry = { kind: BlocklistKind; value: string; label?: string; note: string };

/** Adds an entry (audited); the same value again answers the entry already there. */
export async function addBlocklistEntry(db: Db, scope: { merchantId: string; actor: Actor; mode: Mode }, entry: AddEntry): Promise<BlocklistView> {
  const value = entry.kind === "card" ? entry.value : normalizeBlocklistValue(entry.kind, entry.value);
  return db.transaction(async (tx) => {
    const id = newId("bl");
    const inserted = await tx
      .insert(riskBlocklist)
      .values({
        id,
        merchantId: scope.merchantId,
        testMode: scope.mode === "test",
        kind: entry.kind,
        value,
        label: entry.label ?? value,
        note: entry.note,
        createdBy: scope.actor.label,
      })
      .onConflictDoNothing()
      .returning({ id: riskBlocklist.id });
    forgetBlocklistCache(scope.merchantId);
    if (inserted.length > 0) {
      await raiseRulesVersion(tx, scope.merchantId);
      await recordAudit(tx as unknown as Db, {
        merchantId: scope.merchantId,
        actor: scope.actor,
        action: "risk.blocklist_added",
        target: { type: "risk_blocklist", id },
        summary: `${scope.mode} ${entry.kind} ${entry.label ?? value}`,
      });
    }
    const [row] = await tx
      .select(listColumns)
      .from(riskBlocklist)
      .where(
        and(
          eq(riskBlocklist.merchantId, scope.merchantId),
          eq(riskBlocklist.testMode, scope.mode === "test"),
          eq(riskBlocklist.kind, entry.kind),
          eq(riskBlocklist.value, value),
        ),
      )
      .limit(1);
    return row!;
  });
}

/** Removes an entry (audited): false when the merchant's mode has no such entry. */
export async function removeBlocklistEntry(db: Db, scope: { merchantId: string; actor: Actor; mode: Mode }, id: string): Promise<boolean> {
  if (!BLOCKLIST_ID.test(id)) return false;
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(riskBlocklist)
      .where(and(eq(riskBlocklist.merchantId, scope.merchantId), eq(riskBlocklist.testMode, scope.mode === "test"), eq(riskBlocklist.id, id)))
      .returning({ kind: riskBlocklist.kind, label: riskBlocklist.label });
    if (!removed) return false;
    forgetBlocklistCache(scope.merchantId);
    await raiseRulesVersion(tx, scope.merchantId);
    await recordAudit(tx as unknown as Db, {
      merchantId: scope.merchantId,
      actor: scope.actor,
      action: "risk.blocklist_removed",
      target: { type: "risk_blocklist", id },
      summary: `${scope.mode} ${removed.kind} ${removed.label}`,
    });
    return true;
  });
}

/** The card that last paid (or tried to) on the invoice: what "Block this card" blocks. */
export async function lastCardOfInvoice(db: Reader, invoiceId: string): Promise<{ fingerprint: string; label: string } | undefined> {
  const [row] = await db
    .select({ fingerprint: riskAttempts.cardFingerprint, label: riskAttempts.cardLabel })
    .from(riskAttempts)
    .where(and(eq(riskAttempts.invoiceId, invoiceId), sql`${riskAttempts.cardFingerprint} is not null`))
    .orderBy(desc(riskAttempts.createdAt))
    .limit(1);
  return row?.fingerprint ? { fingerprint: row.fingerprint, label: row.label ?? "card" } : undefined;
}

/** The blocklist's card entry for the card, if it is on it. */
export async function cardIsBlocked(db: Reader, merchantId: string, mode: Mode, fingerprint: string): Promise<boolean> {
  const [row] = await db
    .select({ id: riskBlocklist.id })
    .from(riskBlocklist)
    .where(
      and(
        eq(riskBlocklist.merchantId, merchantId),
        eq(riskBlocklist.testMode, mode === "test"),
        eq(riskBlocklist.kind, "card"),
        eq(riskBlocklist.value, fingerprint),
      ),
    )
    .limit(1);
  return row !== undefined;
}

const SUCCEEDED = ["processed", "partially_processed", "authorized", "refunding", "refunded", "partially_refunded", "capturing", "voiding", "voided"];

type AttemptKeysOf = { cardFingerprint: string | null; addressHash: string | null; emailHash: string | null };
type HistoryEntry = Omit<PastAttempt, "outcome"> & { outcome: PastAttempt["outcome"]; status: string };

/** PGlite hands a jsonb value over parsed, postgres.js (as drizzle sets it up) as text. */
const parsedJson = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

/**
 * The history as the velocity limits read it (the database's `risk_history`, migration 0038: the
 * day's attempts sharing a key): an open attempt whose invoice has since been paid counts as a
 * success, one whose invoice has failed as a decline.
 */
function historyOf(entries: readonly HistoryEntry[]): PastAttempt[] {
  return entries.map(({ status, ...entry }) => ({
    ...entry,
    outcome:
      entry.outcome !== "open"
        ? entry.outcome
        : SUCCEEDED.includes(status)
          ? "succeeded"
          : status === "process_failed" || status === "expired"
            ? "declined"
            : "open",
  }));
}

/** The recent attempts sharing a key with this one, read only (the simulator; Pay's read is `recordPayAttempt`'s). */
export async function recentAttempts(
  db: Reader,
  scope: { merchantId: string; testMode: boolean; invoiceId: string },
  keys: AttemptKeysOf,
): Promise<{ now: number; history: PastAttempt[] }> {
  const [row] = rowsOf<{ history: unknown; now: number | string }>(
    await db.execute(
      sql`select risk_history(${scope.merchantId}, ${scope.testMode}, ${scope.invoiceId}, ${keys.cardFingerprint}, ${keys.addressHash}, ${keys.emailHash}) as "history", (extract(epoch from now()) * 1000)::float8 as "now"`,
    ),
  );
  return { now: Number(row!.now), history: historyOf(parsedJson<HistoryEntry[]>(row!.history)) };
}

type PayAttempt = {
  merchantId: string;
  testMode: boolean;
  invoiceId: string;
  cardLabel: string;
  cardBin: string | null;
  outcome: "open" | "exempt";
  amount: string;
  currency: string;
} & AttemptKeysOf;

/**
 * Pay's one statement (the database's `risk_pay_attempt`, migration 0038): the merchant's lock for
 * the mode, the rules version, the history read after the lock (none for an exempt attempt) and the
 * attempt recorded, all before the lock is let go at the statement's end.
 */
export async function recordPayAttempt(db: Reader, attempt: PayAttempt): Promise<{ id: string; version: number; now: number; history: PastAttempt[] }> {
  const id = newId("ra");
  const [row] = rowsOf<{ result: unknown }>(
    await db.execute(
      sql`select risk_pay_attempt(${id}, ${attempt.merchantId}, ${attempt.testMode}, ${attempt.invoiceId}, ${attempt.cardFingerprint}, ${attempt.cardLabel}, ${attempt.cardBin}, ${attempt.addressHash}, ${attempt.emailHash}, ${attempt.outcome}, ${attempt.amount}, ${attempt.currency}) as "result"`,
    ),
  );
  const result = parsedJson<{ version: number; now: number; history: HistoryEntry[] }>(row!.result);
  return { id, version: Number(result.version), now: Number(result.now), history: historyOf(result.history) };
}

/** The attempt refused after all, with its rule (decided on the history read with it). */
export async function blockRiskAttempt(tx: Tx, id: string, rule: string): Promise<void> {
  await tx.update(riskAttempts).set({ outcome: "blocked", rule }).where(eq(riskAttempts.id, id));
}

/** After the attempt: what it came to (a success stops counting; an unknown or pending one stays open). */
export async function settleRiskAttempt(db: Reader, id: string, outcome: "declined" | "succeeded" | "open"): Promise<void> {
  if (outcome === "open") return;
  await db
    .update(riskAttempts)
    .set({ outcome })
    .where(and(eq(riskAttempts.id, id), eq(riskAttempts.outcome, "open")));
}

export type BlockedAttemptView = { id: string; rule: string; cardLabel: string | null; amount: string; currency: string; at: Date };

/** The invoice's refused attempts, for its timeline. */
export async function blockedAttemptsOf(db: Reader, invoiceId: string): Promise<BlockedAttemptView[]> {
  const rows = await db
    .select({
      id: riskAttempts.id,
      rule: riskAttempts.rule,
      cardLabel: riskAttempts.cardLabel,
      amount: riskAttempts.amount,
      currency: riskAttempts.currency,
      at: riskAttempts.createdAt,
    })
    .from(riskAttempts)
    .where(and(eq(riskAttempts.invoiceId, invoiceId), eq(riskAttempts.outcome, "blocked")))
    .orderBy(riskAttempts.createdAt)
    .limit(200);
  return rows.map((row) => ({ ...row, rule: row.rule ?? "" }));
}

/** The overview's figure: blocked attempts since `since` and their would-be amounts per currency. */
export async function blockedSummary(
  db: Reader,
  merchantId: string,
  mode: Mode,
  since: Date,
  until?: Date,
): Promise<{ count: number; amounts: { currency: string; amount: string }[] }> {
  const rows = await db
    .select({ currency: riskAttempts.currency, count: sql<number>`count(*)::int`, total: sql<string>`sum(${riskAttempts.amount}::numeric)::text` })
    .from(riskAttempts)
    .where(
      and(
        eq(riskAttempts.merchantId, merchantId),
        eq(riskAttempts.testMode, mode === "test"),
        eq(riskAttempts.outcome, "blocked"),
        gte(riskAttempts.createdAt, since),
        until ? lt(riskAttempts.createdAt, until) : undefined,
      ),
    )
    .groupBy(riskAttempts.currency)
    .orderBy(riskAttempts.currency);
  return { count: rows.reduce((sum, row) => sum + Number(row.count), 0), amounts: rows.map((row) => ({ currency: row.currency, amount: row.total })) };
}

/** The mode's latest refused attempts, newest first: the Risk page's list. */
export async function recentBlockedAttempts(db: Reader, merchantId: string, mode: Mode, limit = 20): Promise<(BlockedAttemptView & { invoiceId: string })[]> {
  const rows = await db
    .select({
      id: riskAttempts.id,
      invoiceId: riskAttempts.invoiceId,
      rule: riskAttempts.rule,
      cardLabel: riskAttempts.cardLabel,
      amount: riskAttempts.amount,
      currency: riskAttempts.currency,
      at: riskAttempts.createdAt,
    })
    .from(riskAttempts)
    .where(and(eq(riskAttempts.merchantId, merchantId), eq(riskAttempts.testMode, mode === "test"), eq(riskAttempts.outcome, "blocked")))
    .orderBy(desc(riskAttempts.createdAt))
    .limit(limit);
  return rows.map((row) => ({ ...row, rule: row.rule ?? "" }));
}

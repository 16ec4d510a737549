import { and, desc, eq, gte, like, lt, sql, type SQL } from "drizzle-orm";
import { dayInTimeZone } from "@/lib/time-zones";
import type { Db } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";
import type { AuditFilter } from "./filters";

const AUDIT_PAGE_SIZE = 50;

export type AuditEntry = {
  id: string;
  actorType: string;
  actorId: string | null;
  actorLabel: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  summary: string;
  changes: string[];
  createdAt: Date;
};

const columns = {
  id: auditLog.id,
  actorType: auditLog.actorType,
  actorId: auditLog.actorId,
  actorLabel: auditLog.actorLabel,
  action: auditLog.action,
  targetType: auditLog.targetType,
  targetId: auditLog.targetId,
  summary: auditLog.summary,
  changes: auditLog.changes,
  createdAt: auditLog.createdAt,
};

/** The filter as conditions: the page and the CSV export select the same entries. */
/** `zone`: the time zone whose days the filter's From and To name (the zone in force for the viewer). */
function auditWhere(merchantId: string, filter: AuditFilter, zone: string): SQL[] {
  const where: SQL[] = [eq(auditLog.merchantId, merchantId)];
  if (filter.group) where.push(like(auditLog.action, `${filter.group}.%`));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.actor === "system") where.push(eq(auditLog.actorType, "system"));
  else if (filter.actor) where.push(eq(auditLog.actorId, filter.actor));
  // The filter's days passed parseDay when it was read; read again here, never as raw text, as the
  // zone's days (from its midnight to the next, 23 or 25 hours where summer time changes).
  const from = filter.from ? dayInTimeZone(filter.from, zone) : undefined;
  const to = filter.to ? dayInTimeZone(filter.to, zone) : undefined;
  if (from) where.push(gte(auditLog.createdAt, from.start));
  if (to) where.push(lt(auditLog.createdAt, to.end));
  return where;
}

/** One page of the merchant's audit log, newest first, and whether an older page exists. */
export async function listAuditLog(
  db: Db,
  merchantId: string,
  filter: AuditFilter,
  zone = "UTC",
): Promise<{ entries: AuditEntry[]; hasMore: boolean; page: number }> {
  const page = filter.page ?? 1;
  const where = auditWhere(merchantId, filter, zone);
  const rows = await db
    .select(columns)
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  return { entries: rows.slice(0, AUDIT_PAGE_SIZE), hasMore: rows.length > AUDIT_PAGE_SIZE, page };
}

/**
 * The next batch of entries the filter selects (every page), newest first, after the keyset
 * position `after` (the last entry of the batch before): what the CSV export streams.
 */
export async function auditBatch(
  db: Db,
  merchantId: string,
  filter: AuditFilter,
  after: { createdAt: Date; id: string } | undefined,
  size: number,
  zone = "UTC",
): Promise<AuditEntry[]> {
  const where = auditWhere(merchantId, filter, zone);
  if (after) where.push(sql`(${auditLog.createdAt}, ${auditLog.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})`);
  return db
    .select(columns)
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(size);
}

/** How many entries the filter selects. */
export async function countAudit(db: Db, merchantId: string, filter: AuditFilter, zone = "UTC"): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(and(...auditWhere(merchantId, filter, zone)));
  return row?.n ?? 0;
}

/** Everyone who appears in the merchant's log, with the latest name it was written under: the actor filter's choices. */
export async function listAuditActors(db: Db, merchantId: string): Promise<{ id: string; label: string }[]> {
  const rows = await db
    .select({
      id: sql<string>`coalesce(${auditLog.actorId}, 'system')`,
      label: sql<string>`(array_agg(${auditLog.actorLabel} order by ${auditLog.createdAt} desc))[1]`,
    })
    .from(auditLog)
    .where(eq(auditLog.merchantId, merchantId))
    .groupBy(sql`coalesce(${auditLog.actorId}, 'system')`)
    .orderBy(sql`2`)
    .limit(200);
  return rows;
}

/** The entries about one connection, for its page's audit trail (actions without their family). */
export async function listConnectionAudit(db: Db, merchantId: string, connectionId: string) {
  const rows = await db
    .select(columns)
    .from(auditLog)
    .where(and(eq(auditLog.merchantId, merchantId), eq(auditLog.targetType, "connection"), eq(auditLog.targetId, connectionId)))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(200);
  return rows.map((row) => ({
    id: row.id,
    actor: row.actorLabel,
    action: row.action.replace(/^connection\./, ""),
    changes: row.changes,
    createdAt: row.createdAt,
  }));
}

import { and, desc, eq, gte, like, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys, requestLog, type RequestLogRow } from "@/lib/db/schema";
import { dayInTimeZone } from "@/lib/time-zones";
import { cursorOf, parseCursor, type RequestLogFilter } from "./filters";

export type RequestLogSummary = Omit<RequestLogRow, "requestBody" | "responseBody">;

const PAGE_SIZE = 50;

const SUMMARY = {
  id: requestLog.id,
  merchantId: requestLog.merchantId,
  testMode: requestLog.testMode,
  createdAt: requestLog.createdAt,
  method: requestLog.method,
  path: requestLog.path,
  status: requestLog.status,
  durationMs: requestLog.durationMs,
  apiKeyId: requestLog.apiKeyId,
  keyPrefix: requestLog.keyPrefix,
  keyLastFour: requestLog.keyLastFour,
  requestId: requestLog.requestId,
  idempotencyKey: requestLog.idempotencyKey,
  invoiceId: requestLog.invoiceId,
  refundId: requestLog.refundId,
  requestTruncated: requestLog.requestTruncated,
  responseTruncated: requestLog.responseTruncated,
};

const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of the merchant's requests in one mode, newest first, after the filter's cursor: status
 * class, part of the path, key, invoice, and From and To as days of `zone`.
 */
export async function listRequestLog(
  db: Db,
  merchantId: string,
  mode: "test" | "live",
  filter: RequestLogFilter,
  zone = "UTC",
  pageSize = PAGE_SIZE,
): Promise<{ entries: RequestLogSummary[]; nextCursor: string | undefined }> {
  const where: SQL[] = [eq(requestLog.merchantId, merchantId), eq(requestLog.testMode, mode === "test")];
  if (filter.status) {
    const low = Number(filter.status[0]) * 100;
    where.push(gte(requestLog.status, low), lt(requestLog.status, low + 100));
  }
  if (filter.path) where.push(like(requestLog.path, `%${likeText(filter.path)}%`));
  if (filter.key) where.push(eq(requestLog.apiKeyId, filter.key));
  if (filter.invoice) where.push(eq(requestLog.invoiceId, filter.invoice));
  const from = filter.from ? dayInTimeZone(filter.from, zone) : undefined;
  const to = filter.to ? dayInTimeZone(filter.to, zone) : undefined;
  if (from) where.push(gte(requestLog.createdAt, from.start));
  if (to) where.push(lt(requestLog.createdAt, to.end));
  const after = filter.after ? parseCursor(filter.after) : undefined;
  if (after) where.push(or(lt(requestLog.createdAt, after.at), and(eq(requestLog.createdAt, after.at), lt(requestLog.id, after.id)))!);
  const rows = await db
    .select(SUMMARY)
    .from(requestLog)
    .where(and(...where))
    .orderBy(desc(requestLog.createdAt), desc(requestLog.id))
    .limit(pageSize + 1);
  const entries = rows.slice(0, pageSize);
  return { entries, nextCursor: rows.length > pageSize ? cursorOf(entries.at(-1)!) : undefined };
}

/** One request with its bodies, if it is the merchant's (another merchant's is not found). */
export async function getRequestLogEntry(db: Db, merchantId: string, id: string): Promise<RequestLogRow | undefined> {
  if (!/^rql_[A-Za-z0-9_-]{1,40}$/.test(id)) return undefined;
  const [row] = await db
    .select()
    .from(requestLog)
    .where(and(eq(requestLog.id, id), eq(requestLog.merchantId, merchantId)))
    .limit(1);
  return row;
}

/** The merchant's keys of a mode, for the key filter: name, prefix and last four (revoked ones too: their requests stay). */
export async function listRequestLogKeys(db: Db, merchantId: string, mode: "test" | "live"): Promise<{ id: string; label: string }[]> {
  const rows = await db
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, lastFour: apiKeys.lastFour, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.merchantId, merchantId), eq(apiKeys.mode, mode)))
    .orderBy(sql`${apiKeys.revokedAt} is not null`, apiKeys.name);
  return rows.map((row) => ({ id: row.id, label: `${row.name} (${row.prefix}…${row.lastFour})${row.revokedAt ? ", revoked" : ""}` }));
}

import { and, asc, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { CONNECTION_ID } from "@/lib/ids/patterns";
import { connections } from "@/lib/db/schema";
import { getProvider } from "@/lib/providers";
import { toConnectionView, type ConnectionRow, type ConnectionView } from "./store";

export type ConnectionFilters = { provider?: string; mode?: "test" | "live"; state?: "enabled" | "disabled" };

/** Whether `id` can name a connection at all (ids are made by newId("conn")); anything else (a NUL byte, say) never reaches the database. */
export function isConnectionId(id: string): boolean {
  return CONNECTION_ID.test(id);
}

export async function findConnectionRow(db: Db, merchantId: string, id: string): Promise<ConnectionRow | undefined> {
  if (!CONNECTION_ID.test(id)) return undefined;
  const [row] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.id, id), eq(connections.merchantId, merchantId), isNull(connections.deletedAt)))
    .limit(1);
  return row;
}

/** A connection of the merchant even after it was deleted: what was sent through it is still asked about through it. */
export async function findConnectionIncludingDeleted(db: Db, merchantId: string, id: string): Promise<ConnectionRow | undefined> {
  if (!CONNECTION_ID.test(id)) return undefined;
  const [row] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.id, id), eq(connections.merchantId, merchantId)))
    .limit(1);
  return row;
}

export async function getConnection(db: Db, merchantId: string, id: string): Promise<ConnectionView | undefined> {
  const row = await findConnectionRow(db, merchantId, id);
  return row && toConnectionView(row);
}

export async function listConnections(db: Db, merchantId: string, filters: ConnectionFilters = {}): Promise<ConnectionView[]> {
  const where: SQL[] = [eq(connections.merchantId, merchantId), isNull(connections.deletedAt)];
  if (filters.provider !== undefined) {
    if (!getProvider(filters.provider)) return [];
    where.push(eq(connections.provider, filters.provider));
  }
  if (filters.mode) where.push(eq(connections.mode, filters.mode));
  if (filters.state) where.push(eq(connections.enabled, filters.state === "enabled"));
  const rows = await db
    .select()
    .from(connections)
    .where(and(...where))
    .orderBy(asc(connections.createdAt));
  return rows.map(toConnectionView);
}

export async function countConnectionsByProvider(db: Db, merchantId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ provider: connections.provider, n: sql<number>`count(*)::int` })
    .from(connections)
    .where(and(eq(connections.merchantId, merchantId), isNull(connections.deletedAt)))
    .groupBy(connections.provider);
  return Object.fromEntries(rows.map((r) => [r.provider, r.n]));
}

/** Per provider, how many of the merchant's connections are healthy, degraded or failing (the providers list). */
export async function countConnectionHealthByProvider(db: Db, merchantId: string): Promise<Record<string, Partial<Record<ConnectionRow["health"], number>>>> {
  const rows = await db
    .select({ provider: connections.provider, health: connections.health, n: sql<number>`count(*)::int` })
    .from(connections)
    .where(and(eq(connections.merchantId, merchantId), isNull(connections.deletedAt)))
    .groupBy(connections.provider, connections.health);
  const out: Record<string, Partial<Record<ConnectionRow["health"], number>>> = {};
  for (const row of rows) (out[row.provider] ??= {})[row.health] = row.n;
  return out;
}

export async function findLabelOwner(db: Db, merchantId: string, label: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: connections.id })
    .from(connections)
    .where(and(eq(connections.merchantId, merchantId), isNull(connections.deletedAt), sql`lower(${connections.label}) = ${label.toLowerCase()}`))
    .limit(1);
  return row?.id;
}

export async function findExclusiveHolder(db: Db, merchantId: string, exclusiveKey: string): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.merchantId, merchantId), isNull(connections.deletedAt), eq(connections.exclusiveKey, exclusiveKey)))
    .limit(1);
  return row;
}

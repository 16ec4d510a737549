import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { DISPUTE_LOSS_STATUSES, OPEN_DISPUTE_STATUSES, type DisputeStatus } from "@/lib/db/enums";
import { disputes } from "@/lib/db/schema";
import type { Mode } from "@/lib/providers";

export type DisputeRow = typeof disputes.$inferSelect;

/** Statuses that hold the disputed amount back from the payment: open ones and lost or accepted ones (a won one gives it back). */
const HOLDING_DISPUTE_STATUSES = [...OPEN_DISPUTE_STATUSES, ...DISPUTE_LOSS_STATUSES] as const satisfies readonly DisputeStatus[];

export function isOpenDispute(status: string): boolean {
  return (OPEN_DISPUTE_STATUSES as readonly string[]).includes(status);
}

/** The merchant's dispute, or undefined when it is another merchant's, of the other mode than the key's, or none. */
export async function findDispute(db: Db, merchantId: string, id: string, mode?: Mode): Promise<DisputeRow | undefined> {
  const [row] = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.id, id), eq(disputes.merchantId, merchantId)))
    .limit(1);
  if (!row || (mode && row.testMode !== (mode === "test"))) return undefined;
  return row;
}

export async function readDispute(db: Db, id: string): Promise<DisputeRow | undefined> {
  const [row] = await db.select().from(disputes).where(eq(disputes.id, id)).limit(1);
  return row;
}

/** What the invoice's disputes hold back: the sum of its open, lost and accepted disputes' amounts. */
export async function disputedTotal(db: Db, invoiceId: string): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${disputes.amountMinor}), 0)` })
    .from(disputes)
    .where(and(eq(disputes.invoiceId, invoiceId), inArray(disputes.status, [...HOLDING_DISPUTE_STATUSES])));
  return BigInt(row?.total ?? 0);
}

/** The row as JSON: bigints as decimal text, dates as ISO text (the events keep it so). */
export function snapshotDispute(row: DisputeRow): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, typeof value === "bigint" ? value.toString() : value instanceof Date ? value.toISOString() : value]),
  );
}

const DATE_KEYS = ["evidenceDueBy", "evidenceUpdatedAt", "submittedAt", "acceptedAt", "reminderSentAt", "closedAt", "createdAt", "updatedAt"] as const;

export function disputeFromSnapshot(snapshot: Record<string, unknown>): DisputeRow {
  const row: Record<string, unknown> = { ...snapshot };
  if (typeof row.amountMinor === "string") row.amountMinor = BigInt(row.amountMinor);
  for (const key of DATE_KEYS) if (typeof row[key] === "string") row[key] = new Date(row[key] as string);
  return row as DisputeRow;
}

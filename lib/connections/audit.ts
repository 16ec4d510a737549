import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { connectionAudit } from "@/lib/db/schema";
import { newId } from "@/lib/ids";

/** Who did it, as the audit trail shows it: a person or an API key, never a secret. */
export type Actor = { label: string };

export type AuditAction =
  | "created"
  | "updated"
  | "enabled"
  | "disabled"
  | "deleted"
  | "constants_updated"
  | "tested"
  /** Its place in a routing order changed (lib/routing/orders.ts). */
  | "routing_changed";

export async function recordAudit(
  db: Db,
  entry: { connectionId: string; merchantId: string; actor: Actor; action: AuditAction; changes?: string[] },
) {
  await db.insert(connectionAudit).values({
    id: newId("aud"),
    connectionId: entry.connectionId,
    merchantId: entry.merchantId,
    actor: entry.actor.label,
    action: entry.action,
    changes: entry.changes ?? [],
  });
}

export type AuditEntry = { id: string; actor: string; action: string; changes: string[]; createdAt: Date };

export async function listAudit(db: Db, merchantId: string, connectionId: string): Promise<AuditEntry[]> {
  return db
    .select({
      id: connectionAudit.id,
      actor: connectionAudit.actor,
      action: connectionAudit.action,
      changes: connectionAudit.changes,
      createdAt: connectionAudit.createdAt,
    })
    .from(connectionAudit)
    .where(and(eq(connectionAudit.merchantId, merchantId), eq(connectionAudit.connectionId, connectionId)))
    .orderBy(desc(connectionAudit.createdAt))
    .limit(200);
}

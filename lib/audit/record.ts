import { and, eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { apiKeys, auditLog, type AuditActorType } from "@/lib/db/schema";
import { newId } from "@/lib/ids";
import type { AuditAction } from "./actions";

/**
 * Who did it, as the audit log shows it: a person (name and e-mail as they were at the time), an
 * API key (its id and name), or the service itself (the default: seeds, tools, benches). Never a secret.
 */
export type Actor = { type?: AuditActorType; id?: string | null; label: string };

export function personActor(viewer: { user: { id: string; name: string; email: string } }): Actor {
  return { type: "user", id: viewer.user.id, label: `${viewer.user.name} <${viewer.user.email}>` };
}

export function apiKeyActor(keyId: string, name?: string): Actor {
  return { type: "api_key", id: keyId, label: name ? `API key ${name} (${keyId})` : `API key ${keyId}` };
}

export type AuditRecord = {
  merchantId: string;
  actor: Actor;
  action: AuditAction;
  target?: { type: string; id: string };
  /** A short sentence, no secrets: "Label B", "alice@example.com as support", "1.00 EUR". */
  summary?: string;
  /** Names of what changed, never values of secrets. */
  changes?: string[];
};

const SUMMARY_MAX = 300;

/**
 * Writes one audit row. Pass the transaction the change itself runs in where there is one, so the
 * row exists exactly when the change does.
 */
export async function recordAudit(db: Db, entry: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    id: newId("aud"),
    merchantId: entry.merchantId,
    actorType: entry.actor.type ?? "system",
    actorId: entry.actor.id ?? null,
    actorLabel: entry.actor.label,
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    summary: (entry.summary ?? "").slice(0, SUMMARY_MAX),
    changes: entry.changes ?? [],
  });
}

/** An API key's name for its audit rows (read here so lib/api-keys stays as it is). */
export async function apiKeyName(db: Db, merchantId: string, keyId: string): Promise<string> {
  const [row] = await db
    .select({ name: apiKeys.name })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.merchantId, merchantId)))
    .limit(1);
  return row?.name ?? "";
}

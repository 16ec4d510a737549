import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

/**
 * Sessions are signed cookies (JWT) that the server keeps no list of; each carries the person's
 * `session_version` from when it was issued, and every read of a session compares it with the
 * row (lib/auth). Raising the version ends every session issued before: sign-out, a password change
 * (the current session is issued again) and a password reset. A removed member has no row at all.
 */
export async function currentSessionVersion(db: Db, userId: string): Promise<number | undefined> {
  const [row] = await db.select({ version: users.sessionVersion }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.version;
}

export async function endSessions(db: Db, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
}

/** The SQL fragment for an update that also ends the person's sessions (same statement, same transaction). */
export const nextSessionVersion = sql`${users.sessionVersion} + 1`;

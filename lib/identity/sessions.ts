import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";

/**
 * Sessions are signed cookies (JWT) that the server keeps no list of; each carries the person's
 * `session_version` from when it was issued, and every read of a session compares it with the
 * row (lib/auth). Raising the version ends every session issued before: sign-out, and any new
 * password (`setPassword`: a change, where the current session is issued again, a reset,
 * `seed-demo --reset`). A removed member has no row at all.
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

/**
 * The one way a person's stored password changes. Whoever knew the old password may hold a session,
 * so the same statement raises the session version and every session issued before is refused
 * (the dashboard's password change then issues the person's own browser a new one). Answers the
 * person's e-mail, or undefined when there is no such person. `db` may be a transaction.
 */
export async function setPassword(db: Db, userId: string, passwordHash: string): Promise<{ email: string } | undefined> {
  const [row] = await db
    .update(users)
    .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId))
    .returning({ email: users.email });
  return row;
}

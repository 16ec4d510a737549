import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchants, users } from "@/lib/db/schema";

/**
 * Who a person is and which merchant they belong to, with which role: read by sign-in and on every
 * request (lib/auth), written by sign-up and team management (lib/merchants).
 */
export type Merchant = typeof merchants.$inferSelect;
export type User = typeof users.$inferSelect;
/** The person as pages and actions see them: no password hash, no sealed TOTP secrets. */
export type Viewer = { user: Omit<User, "passwordHash" | "totpSecret" | "totpPendingSecret">; merchant: Merchant };

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findUserById(db: Db, userId: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

/** The signed-in person with their merchant, read fresh so role changes and removals apply at once. */
export async function findViewer(db: Db, userId: string): Promise<Viewer | undefined> {
  const [row] = await db
    .select({ user: users, merchant: merchants })
    .from(users)
    .innerJoin(merchants, eq(users.merchantId, merchants.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) return undefined;
  const { passwordHash: _omit, totpSecret: _secret, totpPendingSecret: _pending, ...user } = row.user;
  return { user, merchant: row.merchant };
}

/**
 * An owner without two-factor sign-in at a merchant that requires it for owners: sent to enrolment
 * before anything else (pages through requirePageViewer, actions through validatedAction).
 */
export function mustEnrolMfa(viewer: Viewer): boolean {
  return viewer.user.role === "owner" && viewer.merchant.requireOwnerMfa && !viewer.user.totpEnabledAt;
}

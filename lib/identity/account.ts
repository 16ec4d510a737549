import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { passwordResets, users } from "@/lib/db/schema";
import { fail, ok, problem, type Result } from "@/lib/problems";
import { findUserByEmail, type User } from "./membership";
import { hashPassword, verifyPassword } from "./password";
import { setPassword } from "./sessions";
import { hashLinkToken, isLinkTokenShape, newLinkToken } from "./tokens";

/** A forgotten-password link works once, for 30 minutes. */
const RESET_TTL_MS = 30 * 60_000;

export const INVALID_LINK_MESSAGE = "This link is no longer valid: it was already used, has expired or was replaced by a newer one. Ask for a new link.";

/**
 * Changes the signed-in person's password after checking the current one, and ends every session
 * (the session version goes up; the caller issues the current browser a new one).
 */
export async function changePassword(db: Db, userId: string, current: string, next: string): Promise<Result<null>> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row || !(await verifyPassword(current, row.passwordHash))) {
    return fail([problem("wrong_password", "The current password is not correct", ["currentPassword"])]);
  }
  if (current === next) return fail([problem("same_password", "Choose a password different from the current one", ["password"])]);
  await setPassword(db, userId, await hashPassword(next));
  return ok(null);
}

/**
 * Starts a password reset. Returns the link token when the e-mail belongs to someone, else
 * undefined after the same lookup; the caller sends the e-mail without waiting for it, so the
 * answer takes about as long either way.
 */
export async function startPasswordReset(db: Db, email: string, now = new Date()): Promise<{ token: string; user: User } | undefined> {
  const user = await findUserByEmail(db, email);
  const { token, hash } = newLinkToken();
  if (!user) return undefined;
  await db.insert(passwordResets).values({ tokenHash: hash, userId: user.id, expiresAt: new Date(now.getTime() + RESET_TTL_MS) });
  return { token, user };
}

/** The person a reset link is for, or undefined when it is unknown, used or expired. */
export async function findPasswordReset(db: Db, token: string, now = new Date()): Promise<{ email: string } | undefined> {
  if (!isLinkTokenShape(token)) return undefined;
  const [row] = await db
    .select({ email: users.email })
    .from(passwordResets)
    .innerJoin(users, eq(passwordResets.userId, users.id))
    .where(and(eq(passwordResets.tokenHash, hashLinkToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
    .limit(1);
  return row;
}

/**
 * Sets the new password, ends every session of the person (whoever had the old password may be
 * signed in) and uses up the link in one transaction: the conditional update lets
 * exactly one of two simultaneous submissions through. Every other open reset link of the person
 * is used up too, so an older e-mail cannot undo this one.
 */
export async function completePasswordReset(db: Db, token: string, password: string, now = new Date()): Promise<Result<{ email: string }>> {
  const invalid = fail([problem("invalid_link", INVALID_LINK_MESSAGE)]);
  if (!isLinkTokenShape(token)) return invalid;
  const passwordHash = await hashPassword(password);
  const email = await db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, hashLinkToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning({ userId: passwordResets.userId });
    if (!used) return undefined;
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, used.userId), isNull(passwordResets.usedAt)));
    return (await setPassword(tx, used.userId, passwordHash))?.email;
  });
  return email ? ok({ email }) : invalid;
}

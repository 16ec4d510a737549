import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { personActor, recordAudit } from "@/lib/audit/record";
import type { Db } from "@/lib/db/client";
import { invites, merchants, ROLES, users, type Role } from "@/lib/db/schema";
import { findUserByEmail, type Viewer } from "@/lib/identity/membership";
import { hashPassword } from "@/lib/identity/password";
import { emailSchema, personNameSchema } from "@/lib/identity/schemas";
import { hashLinkToken, isLinkTokenShape, newLinkToken } from "@/lib/identity/tokens";
import { INVALID_LINK_MESSAGE } from "@/lib/identity/account";
import { newId } from "@/lib/ids";
import { fail, ok, problem, type Result } from "@/lib/problems";
import { isUniqueViolation } from "@/lib/db/errors";

/** An invitation link works once, for 7 days; Resend issues a new link and ends the old one. */
const INVITE_TTL_MS = 7 * 24 * 60 * 60_000;

export const inviteMemberSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  role: z.enum(ROLES, "Choose a role from the list"),
});
export type InviteMemberInput = z.infer<typeof inviteMemberSchema>;
export const inviteRefSchema = z.object({ inviteId: z.string().min(1).max(100) });

export type PendingInvite = { id: string; name: string; email: string; role: Role; expiresAt: Date; createdAt: Date };
export type IssuedInvite = { token: string; email: string; name: string; merchantName: string };

const pending = (now: Date) => and(isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, now));

/** Invitations not yet accepted or revoked, expired ones included (the owner may resend them). */
export function listPendingInvites(db: Db, merchantId: string): Promise<PendingInvite[]> {
  return db
    .select({ id: invites.id, name: invites.name, email: invites.email, role: invites.role, expiresAt: invites.expiresAt, createdAt: invites.createdAt })
    .from(invites)
    .where(and(eq(invites.merchantId, merchantId), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
    .orderBy(asc(invites.createdAt));
}

export async function createInvite(db: Db, viewer: Viewer, input: InviteMemberInput, now = new Date()): Promise<Result<IssuedInvite>> {
  // Only the owner's own team is named: whether an address has an account elsewhere is not theirs to
  // learn. Such an invitation is sent like any other; accepting it says the address is taken.
  const existing = await findUserByEmail(db, input.email);
  if (existing?.merchantId === viewer.merchant.id) {
    return fail([problem("member", "This person is already a member of your team", ["email"])]);
  }
  const [open] = await db
    .select({ id: invites.id })
    .from(invites)
    .where(
      and(
        eq(invites.merchantId, viewer.merchant.id),
        sql`lower(${invites.email}) = ${input.email.toLowerCase()}`,
        isNull(invites.acceptedAt),
        isNull(invites.revokedAt),
      ),
    )
    .limit(1);
  if (open) return fail([problem("already_invited", "This person is already invited: use Resend below", ["email"])]);
  const { token, hash } = newLinkToken();
  const id = `inv_${randomBytes(16).toString("base64url")}`;
  await db.transaction(async (tx) => {
    await tx.insert(invites).values({
      id,
      merchantId: viewer.merchant.id,
      email: input.email,
      name: input.name,
      role: input.role,
      tokenHash: hash,
      invitedBy: viewer.user.id,
      expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
    });
    await recordAudit(tx as unknown as Db, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "team.invited",
      target: { type: "invite", id },
      summary: `${input.name} <${input.email}> as ${input.role}`,
    });
  });
  return ok({ token, email: input.email, name: input.name, merchantName: viewer.merchant.name });
}

const inviteNotFound = () => fail([problem("not_found", "This invitation no longer exists.")]);

/** A new link for an open invitation (the old one stops working) and a fresh 7 days. */
export async function reissueInvite(db: Db, viewer: Viewer, inviteId: string, now = new Date()): Promise<Result<IssuedInvite>> {
  const { token, hash } = newLinkToken();
  const [row] = await db
    .update(invites)
    .set({ tokenHash: hash, expiresAt: new Date(now.getTime() + INVITE_TTL_MS) })
    .where(and(eq(invites.id, inviteId), eq(invites.merchantId, viewer.merchant.id), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
    .returning({ email: invites.email, name: invites.name });
  if (row)
    await recordAudit(db, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "team.invite_resent",
      target: { type: "invite", id: inviteId },
      summary: row.email,
    });
  return row ? ok({ token, ...row, merchantName: viewer.merchant.name }) : inviteNotFound();
}

export async function revokeInvite(db: Db, viewer: Viewer, inviteId: string, now = new Date()): Promise<Result<null>> {
  const rows = await db
    .update(invites)
    .set({ revokedAt: now })
    .where(and(eq(invites.id, inviteId), eq(invites.merchantId, viewer.merchant.id), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
    .returning({ id: invites.id, email: invites.email });
  if (rows[0])
    await recordAudit(db, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "team.invite_revoked",
      target: { type: "invite", id: inviteId },
      summary: rows[0].email,
    });
  return rows.length ? ok(null) : inviteNotFound();
}

/** What the invitation page shows: who is invited to which business, or undefined for a dead link. */
export async function findOpenInvite(db: Db, token: string, now = new Date()) {
  if (!isLinkTokenShape(token)) return undefined;
  const [row] = await db
    .select({ name: invites.name, email: invites.email, role: invites.role, merchantName: merchants.name })
    .from(invites)
    .innerJoin(merchants, eq(invites.merchantId, merchants.id))
    .where(and(eq(invites.tokenHash, hashLinkToken(token)), pending(now)))
    .limit(1);
  return row;
}

/**
 * Accepts an invitation: the member is created with the password (and name, when given) they chose
 * and the link is used up in the same transaction (exactly one of two simultaneous submissions gets
 * through). The caller may then sign the member in: the link has just proved who they are.
 */
export async function acceptInvite(
  db: Db,
  { token, password, name }: { token: string; password: string; name?: string },
  now = new Date(),
): Promise<Result<{ email: string; userId: string }>> {
  const invalid = fail([problem("invalid_link", INVALID_LINK_MESSAGE)]);
  if (!isLinkTokenShape(token)) return invalid;
  const passwordHash = await hashPassword(password);
  try {
    const joined = await db.transaction(async (tx) => {
      const [invite] = await tx
        .update(invites)
        .set({ acceptedAt: now })
        .where(and(eq(invites.tokenHash, hashLinkToken(token)), pending(now)))
        .returning();
      if (!invite) return undefined;
      const userId = newId("usr");
      await tx.insert(users).values({
        id: userId,
        merchantId: invite.merchantId,
        email: invite.email,
        name: name ?? invite.name,
        passwordHash,
        role: invite.role,
      });
      const label = `${name ?? invite.name} <${invite.email}>`;
      await recordAudit(tx as unknown as Db, {
        merchantId: invite.merchantId,
        actor: { type: "user", id: userId, label },
        action: "team.joined",
        target: { type: "user", id: userId },
        summary: `${label} as ${invite.role}`,
      });
      return { email: invite.email, userId };
    });
    return joined ? ok(joined) : invalid;
  } catch (error) {
    // Someone signed up (or accepted another merchant's invitation) with this e-mail meanwhile.
    if (isUniqueViolation(error)) return fail([problem("taken", "An account with this e-mail already exists. Sign in instead.")]);
    throw error;
  }
}

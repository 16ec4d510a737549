import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { personActor, recordAudit } from "@/lib/audit/record";
import type { Db } from "@/lib/db/client";
import { ROLES, users, type Role } from "@/lib/db/schema";
import { fail, ok, problem, type Result } from "@/lib/problems";
import type { Viewer } from "@/lib/identity/membership";
import { addMember, type AddMemberInput } from "./queries";
import { ProblemsError } from "@/lib/errors";
import { ROLE_NAMES } from "@/lib/identity/permissions";

export type { AddMemberInput };

export const memberRefSchema = z.object({ userId: z.string().min(1) });
export const changeRoleSchema = memberRefSchema.extend({ role: z.enum(ROLES, "Choose a role from the list") });

export type Member = { id: string; name: string; email: string; role: Role; createdAt: Date };

/**
 * Creates a member with a known password directly. The dashboard invites people by e-mail instead
 * (lib/merchants/invites.ts) so nobody else ever types their password; this stays for fixtures.
 */
export function addTeamMember(db: Db, merchantId: string, input: Omit<AddMemberInput, "merchantId">) {
  return addMember(db, { merchantId, ...input });
}

export async function listMembers(db: Db, merchantId: string): Promise<Member[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.merchantId, merchantId))
    .orderBy(asc(users.createdAt));
}

/** Owners other than `userId`, counted with the owner rows locked so two demotions cannot both pass. */
async function lockedOtherOwners(tx: Db, merchantId: string, userId: string): Promise<number> {
  const owners = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.merchantId, merchantId), eq(users.role, "owner")))
    .for("update");
  return owners.filter((o) => o.id !== userId).length;
}

const memberNotFound = () => problem("not_found", "This member does not exist.");

async function inOwnerLock(db: Db, fn: (tx: Db) => Promise<Result<null>>): Promise<Result<null>> {
  try {
    return await db.transaction(async (tx) => {
      const result = await fn(tx as unknown as Db);
      if (!result.ok) throw new ProblemsError(result.problems);
      return result;
    });
  } catch (error) {
    if (error instanceof ProblemsError) return fail(error.problems);
    throw error;
  }
}

/** A merchant always keeps at least one owner: nobody could manage it otherwise. */
export function changeMemberRole(db: Db, viewer: Viewer, userId: string, role: Role): Promise<Result<null>> {
  return inOwnerLock(db, async (tx) => {
    if (role !== "owner" && (await lockedOtherOwners(tx, viewer.merchant.id, userId)) === 0) {
      return fail([problem("last_owner", `The last owner cannot become ${ROLE_NAMES[role].toLowerCase()}. Make someone else an owner first.`, ["role"])]);
    }
    const [before] = await tx
      .select({ role: users.role })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.merchantId, viewer.merchant.id)));
    const rows = await tx
      .update(users)
      .set({ role })
      .where(and(eq(users.id, userId), eq(users.merchantId, viewer.merchant.id)))
      .returning({ id: users.id, email: users.email });
    if (!rows[0]) return fail([memberNotFound()]);
    await recordAudit(tx, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "team.role_changed",
      target: { type: "user", id: userId },
      summary: `${rows[0].email} is now ${role} (was ${before?.role ?? "unknown"})`,
      changes: ["role"],
    });
    return ok(null);
  });
}

export function removeMember(db: Db, viewer: Viewer, userId: string): Promise<Result<null>> {
  if (userId === viewer.user.id) return Promise.resolve(fail([problem("self_removal", "You cannot remove yourself.")]));
  return inOwnerLock(db, async (tx) => {
    if ((await lockedOtherOwners(tx, viewer.merchant.id, userId)) === 0) {
      return fail([problem("last_owner", "The last owner cannot be removed.")]);
    }
    const rows = await tx
      .delete(users)
      .where(and(eq(users.id, userId), eq(users.merchantId, viewer.merchant.id)))
      .returning({ id: users.id, email: users.email, role: users.role });
    if (!rows[0]) return fail([memberNotFound()]);
    await recordAudit(tx, {
      merchantId: viewer.merchant.id,
      actor: personActor(viewer),
      action: "team.removed",
      target: { type: "user", id: userId },
      summary: `${rows[0].email} (${rows[0].role})`,
    });
    return ok(null);
  });
}

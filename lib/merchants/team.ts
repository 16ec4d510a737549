import { and, asc, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { emailSchema, newPasswordSchema, personNameSchema } from "@/lib/auth/schemas";
import type { Db } from "@/lib/db/client";
import { ROLES, users, type Role } from "@/lib/db/schema";
import { fail, ok, type Result } from "@/lib/errors";
import { addMember, type Viewer } from "./queries";

export const addMemberSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  role: z.enum(ROLES, "Choose owner or support"),
  password: newPasswordSchema,
});
export type AddMemberInput = z.infer<typeof addMemberSchema>;

export const memberRefSchema = z.object({ userId: z.string().min(1) });
export const changeRoleSchema = memberRefSchema.extend({ role: z.enum(ROLES, "Choose owner or support") });

export type Member = { id: string; name: string; email: string; role: Role; createdAt: Date };

export async function listMembers(db: Db, merchantId: string): Promise<Member[]> {
  return db
    .select({ id: users.id, name: users.name, email: users.email, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.merchantId, merchantId))
    .orderBy(asc(users.createdAt));
}

export function addTeamMember(db: Db, merchantId: string, input: AddMemberInput) {
  return addMember(db, { merchantId, ...input });
}

async function otherOwners(db: Db, merchantId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.merchantId, merchantId), eq(users.role, "owner"), ne(users.id, userId)));
  return row?.n ?? 0;
}

/** A merchant always keeps at least one owner: nobody could manage it otherwise. */
export async function changeMemberRole(db: Db, viewer: Viewer, userId: string, role: Role): Promise<Result<null>> {
  if (role !== "owner" && (await otherOwners(db, viewer.merchant.id, userId)) === 0) {
    return fail([{ path: ["role"], message: "The last owner cannot become support. Make someone else an owner first." }]);
  }
  const rows = await db
    .update(users)
    .set({ role })
    .where(and(eq(users.id, userId), eq(users.merchantId, viewer.merchant.id)))
    .returning({ id: users.id });
  return rows.length ? ok(null) : fail([{ path: [], message: "This member does not exist." }]);
}

export async function removeMember(db: Db, viewer: Viewer, userId: string): Promise<Result<null>> {
  if (userId === viewer.user.id) return fail([{ path: [], message: "You cannot remove yourself." }]);
  if ((await otherOwners(db, viewer.merchant.id, userId)) === 0) {
    return fail([{ path: [], message: "The last owner cannot be removed." }]);
  }
  const rows = await db
    .delete(users)
    .where(and(eq(users.id, userId), eq(users.merchantId, viewer.merchant.id)))
    .returning({ id: users.id });
  return rows.length ? ok(null) : fail([{ path: [], message: "This member does not exist." }]);
}

"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import type { Result } from "@/lib/problems";
import {
  addMemberSchema,
  addTeamMember,
  changeMemberRole,
  changeRoleSchema,
  memberRefSchema,
  removeMember,
} from "@/lib/merchants/team";
import type { ActionOutcome } from "./result";
import { validatedAction } from "./validated-action";

function toAction<T>(result: Result<T>): ActionOutcome {
  if (!result.ok) return result;
  revalidatePath("/team");
  return { ok: true, data: undefined };
}

export const addMemberAction = validatedAction("team.add", { schema: addMemberSchema, role: "owner" }, async (input, viewer) =>
  toAction(await addTeamMember(await getDb(), viewer.merchant.id, input)),
);

export const changeRoleAction = validatedAction("team.role", { schema: changeRoleSchema, role: "owner" }, async (input, viewer) =>
  toAction(await changeMemberRole(await getDb(), viewer, input.userId, input.role)),
);

export const removeMemberAction = validatedAction("team.remove", { schema: memberRefSchema, role: "owner" }, async (input, viewer) =>
  toAction(await removeMember(await getDb(), viewer, input.userId)),
);

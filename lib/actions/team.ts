"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/logger";
import { sendMail } from "@/lib/mail";
import { inviteMail } from "@/lib/mail/messages";
import { ok, refuse, type Result } from "@/lib/problems";
import { createInvite, inviteMemberSchema, inviteRefSchema, reissueInvite, revokeInvite, type IssuedInvite } from "@/lib/merchants/invites";
import { changeMemberRole, changeRoleSchema, memberRefSchema, removeMember } from "@/lib/merchants/team";
import { validatedAction } from "./validated-action";

function toAction<T>(result: Result<T>): Result<undefined> {
  if (!result.ok) return result;
  revalidatePath("/team");
  return ok(undefined);
}

/**
 * E-mails the invitation link. The invitation is kept either way; when the mail server fails the
 * owner is told so and may Resend (the link itself never appears in the log or the answer).
 */
async function mailInvite(result: Result<IssuedInvite>): Promise<Result<undefined>> {
  if (!result.ok) return result;
  revalidatePath("/team");
  const { token, email, ...invite } = result.value;
  try {
    await sendMail(await getDb(), inviteMail(email, token, invite));
  } catch (error) {
    logger.error("invitation e-mail failed", { error });
    return refuse("mail_failed", "The invitation is saved but its e-mail could not be sent. Try Resend in a moment.");
  }
  return ok(undefined);
}

export const inviteMemberAction = validatedAction("team.invite", { schema: inviteMemberSchema, can: "team.manage" }, async (input, viewer) =>
  mailInvite(await createInvite(await getDb(), viewer, input)),
);

export const resendInviteAction = validatedAction("team.invite.resend", { schema: inviteRefSchema, can: "team.manage" }, async (input, viewer) =>
  mailInvite(await reissueInvite(await getDb(), viewer, input.inviteId)),
);

export const revokeInviteAction = validatedAction("team.invite.revoke", { schema: inviteRefSchema, can: "team.manage" }, async (input, viewer) =>
  toAction(await revokeInvite(await getDb(), viewer, input.inviteId)),
);

export const changeRoleAction = validatedAction("team.role", { schema: changeRoleSchema, can: "team.manage" }, async (input, viewer) =>
  toAction(await changeMemberRole(await getDb(), viewer, input.userId, input.role)),
);

export const removeMemberAction = validatedAction("team.remove", { schema: memberRefSchema, can: "team.manage" }, async (input, viewer) =>
  toAction(await removeMember(await getDb(), viewer, input.userId)),
);

"use server";

import { revalidatePath } from "next/cache";
import { reissueSession } from "@/lib/auth/reissue";
import { createSharedRateLimiter } from "@/lib/rate-limit/limiter";
import { personActor, recordAudit } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { changePassword } from "@/lib/identity/account";
import { businessNameSchema, changePasswordSchema } from "@/lib/identity/schemas";
import { renameMerchant } from "@/lib/merchants/business";
import { ok, refuse } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/** Wrong current passwords count like failed sign-ins: 10 per 15 minutes per person. */
const passwordChecks = createSharedRateLimiter("password-change", 10, 15 * 60_000);

export const changePasswordAction = validatedAction("account.password", { schema: changePasswordSchema }, async (input, viewer) => {
  const key = viewer.user.id;
  const attempt = await passwordChecks.attempt(key);
  if (attempt.retryAfterSeconds > 0) return refuse("rate_limited", "Too many attempts. Wait 15 minutes and try again.");
  const result = await changePassword(await getDb(), key, input.currentPassword, input.password);
  if (!result.ok) {
    // Only a wrong current password stays counted.
    if (!result.problems.some((p) => p.code === "wrong_password")) await attempt.forgive();
    return result;
  }
  await passwordChecks.reset(key);
  // The change ended every session of the person, this browser's too: it gets a new one at once.
  await reissueSession(viewer.user.id);
  return ok(undefined);
});

export const renameBusinessAction = validatedAction("account.business-name", { schema: businessNameSchema, can: "settings.write" }, async (input, viewer) => {
  await renameMerchant(await getDb(), viewer, input.merchantName);
  await recordAudit(await getDb(), {
    merchantId: viewer.merchant.id,
    actor: personActor(viewer),
    action: "settings.updated",
    target: { type: "settings", id: viewer.merchant.id },
    summary: `Business name: ${input.merchantName}`,
    changes: ["business_name"],
  });
  revalidatePath("/", "layout");
  return ok(undefined);
});

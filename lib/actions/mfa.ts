"use server";

import { revalidatePath } from "next/cache";
import QRCode from "qrcode";
import { createSharedRateLimiter } from "@/lib/rate-limit/limiter";
import { reissueSession } from "@/lib/auth/reissue";
import { getDb } from "@/lib/db/client";
import {
  confirmEnrolmentSchema,
  disableMfaSchema,
  regenerateRecoveryCodesSchema,
  requireOwnerMfaSchema,
  startEnrolmentSchema,
} from "@/lib/identity/mfa/schemas";
import { confirmEnrolment, disableMfa, regenerateRecoveryCodes, setRequireOwnerMfa, startEnrolment } from "@/lib/identity/mfa/service";
import { ok, refuse, type Result } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/** Wrong codes and passwords in these forms count like failed sign-ins: 10 per 15 minutes per person. */
const codeChecks = createSharedRateLimiter("mfa-code", 10, 15 * 60_000);
const TOO_MANY = "Too many wrong codes. Wait 15 minutes and try again.";

/** Runs a check of a code or password as one counted attempt; only a refusal naming a wrong one stays counted. */
async function limited<T>(userId: string, run: () => Promise<Result<T>>): Promise<Result<T>> {
  const attempt = await codeChecks.attempt(userId);
  if (attempt.retryAfterSeconds > 0) return refuse("rate_limited", TOO_MANY);
  const result = await run();
  if (result.ok) await codeChecks.reset(userId);
  else if (!result.problems.some((p) => p.code === "wrong_code" || p.code === "wrong_password")) await attempt.forgive();
  return result;
}

function refreshAccountPages() {
  revalidatePath("/settings");
  revalidatePath("/settings/two-factor");
}

/**
 * "Set up two-factor authentication", after the current password: a new secret, shown once as a QR
 * code (an SVG drawn here, on the server) and as text in groups of four. Open to an owner who must
 * enrol before anything else.
 */
export const startMfaEnrolmentAction = validatedAction("mfa.start", { schema: startEnrolmentSchema, allowWithoutMfa: true }, async (input, viewer) => {
  const started = await limited(viewer.user.id, async () => startEnrolment(await getDb(), viewer, input.password));
  if (!started.ok) return started;
  const { secret, uri } = started.value;
  const qrSvg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return ok({ secret, secretGroups: secret.match(/.{1,4}/g) ?? [secret], uri, qrSvg });
});

/**
 * Confirms the app with its current code and the password; answers the ten recovery codes, shown
 * once. The person's other sessions end; this browser is given a new one.
 */
export const confirmMfaEnrolmentAction = validatedAction("mfa.confirm", { schema: confirmEnrolmentSchema, allowWithoutMfa: true }, async (input, viewer) => {
  // No revalidation here: the page would re-render as "on" and drop the codes before they are read;
  // the form refreshes it once the person has saved them.
  const confirmed = await limited(viewer.user.id, async () => confirmEnrolment(await getDb(), viewer, input));
  if (confirmed.ok) await reissueSession(viewer.user.id);
  return confirmed;
});

export const regenerateRecoveryCodesAction = validatedAction("mfa.recovery-codes", { schema: regenerateRecoveryCodesSchema }, async (input, viewer) => {
  // Refreshed by the form once the new codes are saved (see confirmMfaEnrolmentAction).
  return limited(viewer.user.id, async () => regenerateRecoveryCodes(await getDb(), viewer, input.code));
});

export const disableMfaAction = validatedAction("mfa.disable", { schema: disableMfaSchema }, async (input, viewer) => {
  const disabled = await limited(viewer.user.id, async () => disableMfa(await getDb(), viewer, input));
  if (!disabled.ok) return disabled;
  // The person's other sessions ended with it; this browser is given a new one.
  await reissueSession(viewer.user.id);
  refreshAccountPages();
  return ok(undefined);
});

/** Settings (owners): "Require two-factor authentication for owners". */
export const setRequireOwnerMfaAction = validatedAction(
  "settings.require-owner-mfa",
  { schema: requireOwnerMfaSchema, can: "settings.write" },
  async (input, viewer) => {
    const saved = await setRequireOwnerMfa(await getDb(), viewer, input.requireOwnerMfa);
    if (saved.ok) refreshAccountPages();
    return saved;
  },
);

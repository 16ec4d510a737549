"use server";

import { headers } from "next/headers";
import { clientAddressFromHeaders } from "@/lib/auth/client-address";
import { createSharedRateLimiter } from "@/lib/rate-limit/limiter";
import { getDb } from "@/lib/db/client";
import { completePasswordReset, startPasswordReset } from "@/lib/identity/account";
import { acceptInviteSchema, forgotPasswordSchema, setPasswordSchema } from "@/lib/identity/schemas";
import { signInWithGrant } from "@/lib/auth/grant-sign-in";
import { DEFAULT_AFTER_SIGN_IN } from "@/lib/auth/next-path";
import { sendMailInBackground } from "@/lib/mail";
import { passwordResetMail } from "@/lib/mail/messages";
import { acceptInvite } from "@/lib/merchants/invites";
import { ok } from "@/lib/problems";
import type { ActionResult } from "./result";
import { parseActionInput, runAction } from "./validated-action";

/** Reset e-mails per address and per account: 5 per 15 minutes, so the form cannot flood an inbox. */
const WINDOW_MS = 15 * 60_000;
const resetsByAccount = createSharedRateLimiter("password-reset:account", 5, WINDOW_MS);
const resetsByAddress = createSharedRateLimiter("password-reset:address", 20, WINDOW_MS);

/** The address server.ts settled on from the socket and TRUST_PROXY_HOPS (lib/auth/client-address.ts). */
async function clientAddress(): Promise<string> {
  try {
    return clientAddressFromHeaders(await headers());
  } catch {
    return "local";
  }
}

/**
 * Forgotten password. The answer is the same whether or not the e-mail has an account, limited or
 * not, and the e-mail is sent without waiting for the mail server: neither the words nor the time
 * taken tell an outsider who has an account.
 */
export async function forgotPasswordAction(input: unknown): Promise<ActionResult> {
  return runAction("password.forgot", async () => {
    const parsed = parseActionInput(forgotPasswordSchema, input);
    if (!parsed.ok) return parsed;
    const { email } = parsed.value;
    const address = await clientAddress();
    // The address first: an address past its limit spends nothing of the accounts it names.
    if ((await resetsByAddress.attempt(address)).retryAfterSeconds > 0 || (await resetsByAccount.attempt(email)).retryAfterSeconds > 0) return ok(undefined);
    const db = await getDb();
    const started = await startPasswordReset(db, email);
    if (started) {
      sendMailInBackground(db, passwordResetMail(started.user.email, started.token), "password reset e-mail failed");
    }
    return ok(undefined);
  });
}

/** Sets a new password through a reset link; the page then sends the person to sign in. */
export async function resetPasswordAction(input: unknown): Promise<ActionResult<{ email: string }>> {
  return runAction("password.reset", async () => {
    const parsed = parseActionInput(setPasswordSchema, input);
    if (!parsed.ok) return parsed;
    const result = await completePasswordReset(await getDb(), parsed.value.token, parsed.value.password);
    return result;
  });
}

/**
 * Accepts an invitation with the name and password the member chose, and signs them in: the link,
 * used up in this request, proves who they are (lib/auth/session-grant.ts). They land on Home; only
 * if that session is refused do they go to sign in (the page does that on `{ email }`).
 */
export async function acceptInviteAction(input: unknown): Promise<ActionResult<{ email: string }>> {
  return runAction("invite.accept", async () => {
    const parsed = parseActionInput(acceptInviteSchema, input);
    if (!parsed.ok) return parsed;
    const joined = await acceptInvite(await getDb(), parsed.value);
    if (!joined.ok) return joined;
    await signInWithGrant(joined.value.userId, DEFAULT_AFTER_SIGN_IN);
    return ok({ email: joined.value.email });
  });
}

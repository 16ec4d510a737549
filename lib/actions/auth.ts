"use server";

import { AuthError } from "next-auth";
import { signIn, signOut } from "@/lib/auth";
import { DEFAULT_AFTER_SIGN_IN, safeNextPath } from "@/lib/auth/next-path";
import { headers } from "next/headers";
import { clientAddressFromHeaders } from "@/lib/auth/client-address";
import { SIGN_UP_MAX_PER_ADDRESS } from "@/lib/auth/limits";
import { createSharedRateLimiter } from "@/lib/rate-limit/limiter";
import { retryAfterOfCode, waitInWords } from "@/lib/auth/sign-in-limit";
import { signInWithGrant } from "@/lib/auth/grant-sign-in";
import { bindSignUpBrowser, forgetSignUpBrowser, isSignUpBrowser } from "@/lib/auth/signup-browser";
import { challengeOfCode, EXPIRED_CHALLENGE, WRONG_SECOND_FACTOR } from "@/lib/auth/second-factor";
import { secondFactorSignInSchema } from "@/lib/identity/mfa/schemas";
import { openSignUp, sealSignUp, SIGN_UP_LINK_INVALID } from "@/lib/auth/signup-link";
import { confirmSignUpSchema, signInSchema, signUpSchema } from "@/lib/identity/schemas";
import { findUserByEmail } from "@/lib/identity/membership";
import { hashPassword, verifyPassword } from "@/lib/identity/password";
import { getDb } from "@/lib/db/client";
import { sendMailInBackground, type Mail } from "@/lib/mail";
import { signUpConfirmMail, signUpExistingAccountMail } from "@/lib/mail/messages";
import { fail, ok, problem, refuse, type Result } from "@/lib/problems";
import { createMerchantWithOwner, findMerchantByCommerceAccount } from "@/lib/merchants/queries";
import type { ActionResult } from "./result";
import { parseActionInput, runAction } from "./validated-action";

async function requestAddress(): Promise<string> {
  try {
    return clientAddressFromHeaders(await headers());
  } catch {
    return "local";
  }
}

/** What step one of a sign-in may answer besides a session: the second step's challenge. */
export type SignInStep = { challenge: string } | undefined;

/**
 * Signs in through next-auth (the session cookie is set and the redirect thrown only when
 * authorize accepted); a refusal becomes words. Someone with two-factor on gets no session from
 * the password: the answer is the sealed challenge their code must come with.
 */
async function signInOrExplain(credentials: Record<string, string>, next: unknown): Promise<Result<SignInStep>> {
  try {
    await signIn("credentials", { ...credentials, redirectTo: safeNextPath(next) });
    return ok(undefined);
  } catch (error) {
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code;
      const challenge = challengeOfCode(code);
      if (challenge) return ok({ challenge });
      if (code === WRONG_SECOND_FACTOR) {
        return fail([
          problem("wrong_code", "This code is not right or was already used. Enter the code your app shows now, or an unused recovery code.", ["code"]),
        ]);
      }
      if (code === EXPIRED_CHALLENGE) return refuse("expired", "This sign-in has expired (it lasts 5 minutes). Enter your e-mail and password again.");
      const wait = retryAfterOfCode(code);
      return wait === undefined
        ? refuse("wrong_credentials", "Wrong e-mail or password.")
        : refuse("rate_limited", `Too many sign-in attempts. Try again in ${waitInWords(wait)}.`);
    }
    throw error;
  }
}

/** Sign-up e-mails and confirmations per address: enough for typing mistakes, not for flooding inboxes. */
const signUpsByAddress = createSharedRateLimiter("sign-up:address", SIGN_UP_MAX_PER_ADDRESS, 15 * 60_000);
const signUpsByEmail = createSharedRateLimiter("sign-up:email", 3, 15 * 60_000);
const confirmations = createSharedRateLimiter("sign-up:confirm", 10, 15 * 60_000);

function mailInBackground(mail: Mail): void {
  sendMailInBackground(getDb(), mail, "sign-up e-mail failed");
}

/**
 * Sign-up answers "check your e-mail" whether or not the address has an account: a new
 * address gets the link that creates the account, a registered one a note to its owner. Both paths
 * hash the password and send without waiting, so neither the words nor the time tell them apart.
 * A taken commerce account is still named on its field: it is the business's public API name, not
 * a person's, and the owner must choose another before any e-mail goes out.
 */
export async function signUpAction(input: unknown): Promise<ActionResult<{ email: string }>> {
  return runAction("sign-up", async () => {
    const parsed = parseActionInput(signUpSchema, input);
    if (!parsed.ok) return parsed;
    const { password, ...details } = parsed.value;
    const db = await getDb();
    if (await findMerchantByCommerceAccount(db, details.commerceAccount)) {
      return fail([problem("taken", "This commerce account is taken", ["commerceAccount"])]);
    }
    const answer = ok({ email: details.email });
    // Marked on every answer, as the headers would otherwise tell which addresses have an account.
    const browser = await bindSignUpBrowser();
    const address = await requestAddress();
    if ((await signUpsByAddress.attempt(address)).retryAfterSeconds > 0 || (await signUpsByEmail.attempt(details.email)).retryAfterSeconds > 0) return answer;
    const passwordHash = await hashPassword(password);
    const existing = await findUserByEmail(db, details.email);
    mailInBackground(
      existing
        ? signUpExistingAccountMail(existing.email)
        : signUpConfirmMail(details.email, sealSignUp({ ...details, passwordHash, browser }), details.merchantName),
    );
    return answer;
  });
}

/**
 * Finishes a sign-up from its link (a POST: opening the link changes nothing), then Home, signed in.
 * Proof that it is the person who signed up: the browser that sent the form (its cookie matches the
 * link, lib/auth/signup-browser.ts), or else the password chosen at sign-up, typed again.
 */
export async function confirmSignUpAction(input: unknown): Promise<ActionResult> {
  return runAction("sign-up.confirm", async () => {
    const parsed = parseActionInput(confirmSignUpSchema, input);
    if (!parsed.ok) return parsed;
    const pending = openSignUp(parsed.value.token);
    if (!pending) return refuse("invalid_link", SIGN_UP_LINK_INVALID);
    const password = parsed.value.password ?? "";
    const sameBrowser = await isSignUpBrowser(pending.browser);
    if (!sameBrowser && !password) return fail([problem("required", "Password is required", ["password"])]);
    const attempt = await confirmations.attempt(pending.email);
    if (attempt.retryAfterSeconds > 0) return refuse("rate_limited", "Too many attempts. Wait 15 minutes and try again.");
    // A password, when one is sent, must be the right one, in any browser; only a wrong one stays counted.
    if (password && !(await verifyPassword(password, pending.passwordHash))) {
      return fail([problem("wrong_password", "This is not the password you chose when signing up", ["password"])]);
    }
    await attempt.forgive();
    const { browser: _browser, ...details } = pending;
    const created = await createMerchantWithOwner(await getDb(), details);
    if (!created.ok) {
      // Whoever holds this link owns the address: telling them it has an account reveals nothing.
      const emailTaken = created.problems.some((p) => p.path?.[0] === "email");
      return emailTaken
        ? refuse("email_taken", "This e-mail already has an account (this link was used, or you signed up twice). Sign in instead.")
        : refuse("commerce_account_taken", `The commerce account ${details.commerceAccount} was taken meanwhile. Sign up again with another one.`);
    }
    if (sameBrowser) await forgetSignUpBrowser();
    // The account was made in this request from a link it proved to be theirs: no second password check.
    if (await signInWithGrant(created.value.user.id, DEFAULT_AFTER_SIGN_IN)) return ok(undefined);
    return refuse("sign_in_refused", "Your account is ready. Sign in to continue.");
  });
}

/** Step one: e-mail and password. Answers `{ challenge }` when the person has two-factor sign-in on. */
export async function signInAction(input: unknown, next?: string): Promise<ActionResult<SignInStep>> {
  return runAction("sign-in", async () => {
    const parsed = parseActionInput(signInSchema, input);
    if (!parsed.ok) return parsed;
    return signInOrExplain({ email: parsed.value.email, password: parsed.value.password }, next);
  });
}

/** Step two: the challenge step one answered and a code from the app or a recovery code. */
export async function signInSecondFactorAction(input: unknown, next?: string): Promise<ActionResult<SignInStep>> {
  return runAction("sign-in.second-factor", async () => {
    const parsed = parseActionInput(secondFactorSignInSchema, input);
    if (!parsed.ok) return parsed;
    return signInOrExplain({ challenge: parsed.value.challenge, code: parsed.value.code }, next);
  });
}

/** Ends the session in this browser and on the server (next-auth's signOut event raises the session version). */
export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/sign-in" });
}

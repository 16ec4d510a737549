import { describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null), signIn: async () => undefined }));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ host: "localhost:3000", "x-forwarded-for": "192.0.2.120" }),
  // A browser that keeps nothing: the sign-up confirmation must ask for the password.
  cookies: async () => ({ getAll: () => [], get: () => undefined, set: () => undefined, delete: () => undefined }),
}));

import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { changePasswordAction } from "@/lib/actions/account";
import { confirmSignUpAction } from "@/lib/actions/auth";
import { confirmMfaEnrolmentAction, disableMfaAction, regenerateRecoveryCodesAction, startMfaEnrolmentAction } from "@/lib/actions/mfa";
import type { ActionResult } from "@/lib/actions/result";
import { sealSignUp } from "@/lib/auth/signup-link";
import { users } from "@/lib/db/schema";
import { findUserByEmail } from "@/lib/identity/membership";
import { hashPassword, verifyPassword } from "@/lib/identity/password";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { setUpTestDb, unique } from "./helpers/db";

/**
 * Forms that check a password or a code allow 10 wrong ones per 15 minutes. Sent all at once (a
 * script, not a person), no more than that many are judged: every attempt is counted before its
 * password or code is checked, so the rest are refused as too many without being looked at.
 */
const t = setUpTestDb();
const LIMIT = 10;
const PASSWORD = "owner-pass-1234";
const TOO_MANY_CODES = "Too many wrong codes. Wait 15 minutes and try again.";
const TOO_MANY = "Too many attempts. Wait 15 minutes and try again.";
const now = () => Math.floor(Date.now() / 1000);

/** How the answers of a burst split: judged and wrong (an error on `field`), refused as too many, anything else. */
function tally(answers: ActionResult<unknown>[], field: string, tooMany: string) {
  const judged = answers.filter((a) => !a.ok && a.fieldErrors[field] !== undefined).length;
  const refused = answers.filter((a) => !a.ok && a.message === tooMany && Object.keys(a.fieldErrors).length === 0).length;
  return { judged, refused, other: answers.length - judged - refused };
}

async function owner() {
  const account = unique("burst");
  const email = `${account}@example.com`;
  const created = await createMerchantWithOwner(t.db, { email, password: PASSWORD, name: "Bo Owner", merchantName: "Shop", commerceAccount: account });
  if (!created.ok) throw new Error(JSON.stringify(created.problems));
  session.userId = created.value.user.id;
  return { email, userId: created.value.user.id };
}

/** An owner signed in with two-factor on (enrolled with the previous step's code). */
async function enrolledOwner() {
  const who = await owner();
  const started = await startMfaEnrolmentAction({ password: PASSWORD });
  if (!started.ok) throw new Error(`setup: start ${JSON.stringify(started)}`);
  const { secret } = started.data;
  const confirmed = await confirmMfaEnrolmentAction({ password: PASSWORD, code: await generate({ secret, epoch: now() - 30 }) });
  if (!confirmed.ok) throw new Error(`setup: confirm ${JSON.stringify(confirmed)}`);
  return { ...who, secret, recoveryCodes: confirmed.data.recoveryCodes };
}

/** `count` six-digit codes the app does not show around now. */
async function wrongCodes(secret: string, count: number): Promise<string[]> {
  const valid = new Set(await Promise.all([-60, -30, 0, 30, 60].map((offset) => generate({ secret, epoch: now() + offset }))));
  return Array.from({ length: count + valid.size }, (_, i) => String(100_000 + i))
    .filter((c) => !valid.has(c))
    .slice(0, count);
}

async function twoFactorOn(userId: string): Promise<boolean> {
  const [row] = await t.db.select({ enabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId));
  return Boolean(row?.enabledAt);
}

describe("a burst of wrong attempts is judged no more than the limit allows", () => {
  it("turning two-factor off with 100 wrong app codes at once: 10 are checked, 90 refused as too many, and it stays on", async () => {
    const { userId, secret } = await enrolledOwner();
    const answers = await Promise.all((await wrongCodes(secret, 100)).map((code) => disableMfaAction({ password: PASSWORD, code })));
    expect(tally(answers, "code", TOO_MANY_CODES)).toEqual({ judged: LIMIT, refused: 100 - LIMIT, other: 0 });
    expect(await twoFactorOn(userId)).toBe(true);
    // The right code is refused too until the window ends.
    expect(await disableMfaAction({ password: PASSWORD, code: await generate({ secret, epoch: now() }) })).toMatchObject({
      ok: false,
      message: TOO_MANY_CODES,
    });
    expect(await twoFactorOn(userId)).toBe(true);
  });

  it("turning two-factor off with 30 wrong recovery codes at once: 10 are checked, 20 refused as too many, and it stays on", async () => {
    const { userId } = await enrolledOwner();
    const guesses = Array.from({ length: 30 }, (_, i) => `aaaa${"abcdefghjkmnpqrstuvwxyz23456789"[i]}-aaaaa`);
    const answers = await Promise.all(guesses.map((code) => disableMfaAction({ password: PASSWORD, code })));
    expect(tally(answers, "code", TOO_MANY_CODES)).toEqual({ judged: LIMIT, refused: 30 - LIMIT, other: 0 });
    expect(await twoFactorOn(userId)).toBe(true);
  });

  it("new recovery codes with 30 wrong app codes at once: 10 are checked, 20 refused as too many", async () => {
    const { secret } = await enrolledOwner();
    const answers = await Promise.all((await wrongCodes(secret, 30)).map((code) => regenerateRecoveryCodesAction({ code })));
    expect(tally(answers, "code", TOO_MANY_CODES)).toEqual({ judged: LIMIT, refused: 30 - LIMIT, other: 0 });
  });

  it("turning two-factor off with 30 wrong passwords at once: 10 are checked, 20 refused as too many, and it stays on", async () => {
    const { userId, recoveryCodes } = await enrolledOwner();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => disableMfaAction({ password: `wrong-pass-${i}`, code: recoveryCodes[0]! })));
    expect(tally(answers, "password", TOO_MANY_CODES)).toEqual({ judged: LIMIT, refused: 30 - LIMIT, other: 0 });
    expect(await twoFactorOn(userId)).toBe(true);
  });

  it("starting two-factor enrolment with 30 wrong passwords at once: 10 are checked, 20 refused as too many, and no secret is made", async () => {
    const { userId } = await owner();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => startMfaEnrolmentAction({ password: `wrong-pass-${i}` })));
    expect(tally(answers, "password", TOO_MANY_CODES)).toEqual({ judged: LIMIT, refused: 30 - LIMIT, other: 0 });
    const [row] = await t.db.select({ pending: users.totpPendingSecret }).from(users).where(eq(users.id, userId));
    expect(row!.pending).toBeNull();
  });

  it("changing the password with 30 wrong current passwords at once: 10 are checked, 20 refused as too many, and the password is unchanged", async () => {
    const { email } = await owner();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        changePasswordAction({ currentPassword: `wrong-pass-${i}`, password: "next-pass-1234", confirmPassword: "next-pass-1234" }),
      ),
    );
    expect(tally(answers, "currentPassword", TOO_MANY)).toEqual({ judged: LIMIT, refused: 30 - LIMIT, other: 0 });
    const user = await findUserByEmail(t.db, email);
    expect(await verifyPassword(PASSWORD, user!.passwordHash)).toBe(true);
  });

  it("confirming a sign-up with 40 wrong passwords at once: 10 are checked, 30 refused as too many, and no account is made", async () => {
    session.userId = undefined;
    const id = unique("signup");
    const email = `${id}@example.com`;
    const token = sealSignUp({ name: "Nina New", email, merchantName: `Nina ${id}`, commerceAccount: id, passwordHash: await hashPassword("nina-pass-1234") });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => confirmSignUpAction({ token, password: `not-the-one-${i}` })));
    expect(tally(answers, "password", TOO_MANY)).toEqual({ judged: LIMIT, refused: 40 - LIMIT, other: 0 });
    expect(await confirmSignUpAction({ token, password: "nina-pass-1234" })).toMatchObject({ ok: false, message: TOO_MANY });
    expect(await findUserByEmail(t.db, email)).toBeUndefined();
  });
});

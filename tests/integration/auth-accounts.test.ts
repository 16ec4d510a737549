import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";

const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
const signIns = vi.hoisted(() => [] as { email?: string; password?: string; grant?: string; redirectTo?: string; redirect?: boolean }[]);
const reissued = vi.hoisted(() => [] as string[]);
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
  // The real signIn redirects (or sets the cookie); here it records what it was asked for.
  signIn: async (_provider: string, options: { email?: string; password?: string; grant?: string; redirectTo?: string; redirect?: boolean }) => {
    signIns.push(options);
  },
  signOut: async () => undefined,
}));
vi.mock("@/lib/auth/reissue", () => ({
  reissueSession: async (userId: string) => {
    reissued.push(userId);
    return true;
  },
}));
// next-auth itself does not load outside Next (it imports "next/server" without an extension).
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
const client = vi.hoisted(() => ({ address: undefined as string | undefined }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-forwarded-for": client.address ?? `198.51.100.${Math.floor(Math.random() * 250)}` }),
  // Sign-up marks the browser (lib/auth/signup-browser.ts); these tests are a browser that keeps nothing.
  cookies: async () => ({ get: () => undefined, set: () => undefined, delete: () => undefined }),
}));

import { changePasswordAction } from "@/lib/actions/account";
import { confirmSignUpAction, signInAction, signUpAction } from "@/lib/actions/auth";
import { acceptInviteAction, forgotPasswordAction, resetPasswordAction } from "@/lib/actions/password";
import { inviteMemberAction, removeMemberAction } from "@/lib/actions/team";
import { openSignUp, sealSignUp, SIGN_UP_LINK_INVALID, SIGN_UP_LINK_TTL_MS } from "@/lib/auth/signup-link";
import { mailOutbox, users } from "@/lib/db/schema";
import { startPasswordReset } from "@/lib/identity/account";
import { findUserByEmail } from "@/lib/identity/membership";
import { hashPassword } from "@/lib/identity/password";
import { currentSessionVersion } from "@/lib/identity/sessions";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { addTeamMember } from "@/lib/merchants/team";
import { findOpenInvite, listPendingInvites } from "@/lib/merchants/invites";
import { setUpTestDb, unique } from "./helpers/db";

/**
 * Sign-in and accounts through the server actions: where sign-in sends people (`next`),
 * sign-up and invitations that never tell an outsider whether an e-mail has an account, passwords
 * capped at what bcrypt reads, and the session version that sign-out, password change, reset and
 * removal raise (the cookie half is e2e/security-sessions.ui.spec.ts).
 */
const t = setUpTestDb();
const PASSWORD = "first-pass-1234";

beforeEach(() => {
  session.userId = undefined;
  signIns.length = 0;
  reissued.length = 0;
});

async function owner() {
  const id = unique("acct");
  const email = `${id}@example.com`;
  const created = await createMerchantWithOwner(t.db, { name: "Olive Owner", email, password: PASSWORD, merchantName: `Shop ${id}`, commerceAccount: id });
  if (!created.ok) throw new Error("fixture");
  return { ...created.value, email };
}

/** The outbox row for `to` once the action's background send has stored it (mail never delays the answer). */
async function mailTo(to: string) {
  let found: typeof mailOutbox.$inferSelect | undefined;
  await expect
    .poll(async () => {
      [found] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, to));
      return Boolean(found);
    })
    .toBe(true);
  return found!;
}

function signUpInput(overrides: Record<string, string> = {}) {
  const id = unique("new");
  return { name: "Nina New", email: `${id}@example.com`, password: "nina-pass-1234", merchantName: `Nina ${id}`, commerceAccount: id, ...overrides };
}

describe("next after sign-in", () => {
  const hostile = [
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "https://evil.example/home",
    "javascript:alert(1)",
    "/%5Cevil.example",
    "/%5cevil.example",
    "%2F%2Fevil.example",
    "/%2F/evil.example",
    "/%252F%252Fevil.example",
    "/%09/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\u0000x",
    "/%",
    "home",
    "",
  ];

  // signIn is recorded here, not run: the password is checked by next-auth (e2e).
  const email = "someone@example.com";

  it.each(hostile)("refuses %j and sends the person to /home", async (next) => {
    expect(await signInAction({ email, password: PASSWORD }, next)).toEqual({ ok: true, data: undefined });
    expect(signIns.at(-1)?.redirectTo).toBe("/home");
  });

  it.each(["/invoices?status=paid", "/connections/conn_1#credentials", "/providers/provider-b"])("keeps the path %j of this site", async (next) => {
    await signInAction({ email, password: PASSWORD }, next);
    expect(signIns.at(-1)?.redirectTo).toBe(next);
  });
});

describe("sign-up tells only the e-mail's owner whether it has an account", () => {
  it("a new address gets a link that creates the account; nothing exists before it is used", async () => {
    const input = signUpInput();
    expect(await signUpAction(input)).toEqual({ ok: true, data: { email: input.email } });
    expect(await findUserByEmail(t.db, input.email)).toBeUndefined();
    const mail = await mailTo(input.email);
    const token = mail.text.match(/\/sign-up\/confirm\/([A-Za-z0-9_-]+)/)![1]!;
    // The password travels only as its bcrypt hash, sealed: the link shows none of what was typed.
    expect(token).not.toContain(input.email);
    expect(Buffer.from(token, "base64url").toString("latin1")).not.toContain("$2");

    expect(await confirmSignUpAction({ token, password: "not-the-one-1" })).toMatchObject({
      ok: false,
      fieldErrors: { password: "This is not the password you chose when signing up" },
    });
    expect(await confirmSignUpAction({ token, password: input.password })).toEqual({ ok: true, data: undefined });
    // Signed in by a one-time grant for the account just made (tests/integration/link-sessions.test.ts follows it).
    expect(signIns.at(-1)).toMatchObject({ grant: expect.any(String), redirectTo: "/home" });
    expect(await findUserByEmail(t.db, input.email)).toMatchObject({ name: "Nina New", role: "owner" });
    // A second use creates nothing more.
    expect(await confirmSignUpAction({ token, password: input.password })).toMatchObject({
      ok: false,
      message: expect.stringContaining("already has an account"),
    });
  });

  it("a registered address gets the very same answer; its owner is told by e-mail and nothing is created", async () => {
    const existing = await owner();
    const input = signUpInput({ email: existing.email.toUpperCase() });
    const fresh = signUpInput();
    const answerForRegistered = await signUpAction(input);
    const answerForNew = await signUpAction(fresh);
    expect(answerForRegistered).toEqual({ ok: true, data: { email: existing.email } });
    expect(Object.keys(answerForRegistered)).toEqual(Object.keys(answerForNew));
    const mail = await mailTo(existing.email);
    expect(mail.subject).toBe("You already have a Payment Orchestrator account");
    expect(mail.text).not.toMatch(/sign-up\/confirm/);
    const [merchantCount] = await t.db.select({ id: users.merchantId }).from(users).where(eq(users.email, existing.email));
    expect(merchantCount!.id).toBe(existing.merchant.id);
  });

  it("one address gets at most 20 sign-up e-mails in 15 minutes (SIGN_UP_MAX_PER_ADDRESS); the answer does not change", async () => {
    client.address = "203.0.113.77";
    try {
      const inputs = Array.from({ length: 21 }, () => signUpInput());
      for (const input of inputs) expect(await signUpAction(input)).toEqual({ ok: true, data: { email: input.email } });
      await mailTo(inputs[19]!.email);
      client.address = "203.0.113.78";
      const other = signUpInput();
      await signUpAction(other);
      await mailTo(other.email);
      expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, inputs[20]!.email))).toEqual([]);
    } finally {
      client.address = undefined;
    }
  });

  it("a taken commerce account is named on its field before any e-mail goes out", async () => {
    const existing = await owner();
    const input = signUpInput({ commerceAccount: existing.merchant.commerceAccount });
    expect(await signUpAction(input)).toMatchObject({ ok: false, fieldErrors: { commerceAccount: "This commerce account is taken" } });
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, input.email))).toEqual([]);
  });

  it("a changed, foreign or expired link is refused with one clear message", async () => {
    const pending = {
      name: "N",
      email: `${unique("x")}@example.com`,
      merchantName: "N",
      commerceAccount: unique("x"),
      passwordHash: await hashPassword("nina-pass-1234"),
    };
    const token = sealSignUp(pending);
    expect(openSignUp(token)).toEqual(pending);
    const flipped = `${token.slice(0, 30)}${token[30] === "A" ? "B" : "A"}${token.slice(31)}`;
    expect(await confirmSignUpAction({ token: flipped, password: "nina-pass-1234" })).toMatchObject({ ok: false, message: SIGN_UP_LINK_INVALID });
    expect(await confirmSignUpAction({ token: "short", password: "nina-pass-1234" })).toMatchObject({ ok: false, message: SIGN_UP_LINK_INVALID });
    expect(openSignUp(token, Date.now() + SIGN_UP_LINK_TTL_MS + 1)).toBeUndefined();
  });
});

describe("invitations do not tell an owner about other merchants' people", () => {
  it("an address registered with another merchant is invited like any other; only accepting says it is taken", async () => {
    const other = await owner();
    const me = await owner();
    session.userId = me.user.id;
    expect(await inviteMemberAction({ name: "Elsewhere", email: other.email, role: "support" })).toEqual({ ok: true, data: undefined });
    expect(await inviteMemberAction({ name: "Brand New", email: `${unique("nobody")}@example.com`, role: "support" })).toEqual({ ok: true, data: undefined });
    expect((await listPendingInvites(t.db, me.merchant.id)).map((i) => i.email)).toContain(other.email);
    const mail = await mailTo(other.email);
    const token = mail.text.match(/\/invite\/([A-Za-z0-9_-]+)/)![1]!;
    expect(await findOpenInvite(t.db, token)).toMatchObject({ email: other.email });
    session.userId = undefined;
    expect(await acceptInviteAction({ token, password: "accept-pass-123", confirmPassword: "accept-pass-123" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("already exists"),
    });
    // Someone already on the owner's own team is named: the owner sees the team anyway.
    session.userId = me.user.id;
    expect(await inviteMemberAction({ name: "Me", email: me.email, role: "owner" })).toMatchObject({
      ok: false,
      fieldErrors: { email: "This person is already a member of your team" },
    });
  });
});

describe("passwords stop at the 72 bytes bcrypt reads", () => {
  const seventyTwo = `a1${"b".repeat(70)}`;
  const seventyThree = `${seventyTwo}c`;
  // 37 characters, 74 bytes: short in letters, too long in bytes.
  const wideLetters = `1${"ü".repeat(36)}`;
  const error = expect.stringContaining("at most 72 bytes");

  it("sign-up, reset and change refuse more on the password field and accept exactly 72", async () => {
    expect(await signUpAction(signUpInput({ password: seventyThree }))).toMatchObject({ ok: false, fieldErrors: { password: error } });
    expect(await signUpAction(signUpInput({ password: wideLetters }))).toMatchObject({ ok: false, fieldErrors: { password: error } });
    expect(await signUpAction(signUpInput({ password: seventyTwo }))).toMatchObject({ ok: true });

    expect(await resetPasswordAction({ token: "x".repeat(43), password: seventyThree, confirmPassword: seventyThree })).toMatchObject({
      ok: false,
      fieldErrors: { password: error },
    });
    const { user } = await owner();
    session.userId = user.id;
    expect(await changePasswordAction({ currentPassword: PASSWORD, password: wideLetters, confirmPassword: wideLetters })).toMatchObject({
      ok: false,
      fieldErrors: { password: error },
    });
    expect(await changePasswordAction({ currentPassword: PASSWORD, password: seventyTwo, confirmPassword: seventyTwo })).toEqual({ ok: true, data: undefined });
  });
});

describe("the session version ends sessions on the server", () => {
  it("a password change raises it and issues this browser a new session", async () => {
    const { user } = await owner();
    const before = await currentSessionVersion(t.db, user.id);
    session.userId = user.id;
    expect(await changePasswordAction({ currentPassword: PASSWORD, password: "second-pass-5678", confirmPassword: "second-pass-5678" })).toEqual({
      ok: true,
      data: undefined,
    });
    expect(await currentSessionVersion(t.db, user.id)).toBe(before! + 1);
    expect(reissued).toEqual([user.id]);
    // A refused change (wrong current password) ends nothing.
    expect(await changePasswordAction({ currentPassword: "wrong-pass-000", password: "third-pass-9012", confirmPassword: "third-pass-9012" })).toMatchObject({
      ok: false,
    });
    expect(await currentSessionVersion(t.db, user.id)).toBe(before! + 1);
  });

  it("a password reset raises it; a forgotten-password request alone does not", async () => {
    const { user, email } = await owner();
    const before = await currentSessionVersion(t.db, user.id);
    await forgotPasswordAction({ email });
    expect(await currentSessionVersion(t.db, user.id)).toBe(before);
    const started = await startPasswordReset(t.db, email);
    expect(await resetPasswordAction({ token: started!.token, password: "reset-pass-1234", confirmPassword: "reset-pass-1234" })).toMatchObject({ ok: true });
    expect(await currentSessionVersion(t.db, user.id)).toBe(before! + 1);
  });

  it("a removed member has no session version left to match", async () => {
    const { user, merchant } = await owner();
    const added = await addTeamMember(t.db, merchant.id, { email: `${unique("mem")}@example.com`, name: "Mem", password: PASSWORD, role: "support" });
    if (!added.ok) throw new Error("fixture");
    expect(await currentSessionVersion(t.db, added.value.id)).toBe(0);
    session.userId = user.id;
    expect(await removeMemberAction({ userId: added.value.id })).toEqual({ ok: true, data: undefined });
    expect(await currentSessionVersion(t.db, added.value.id)).toBeUndefined();
  });
});

import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";

/**
 * Links that end signed in: accepting an invitation, and confirming a sign-up (without the password
 * in the browser that signed up). next-auth's signIn is replaced by what it does with a
 * `session-grant`: the provider's real authorize (lib/auth/session-grant.ts), recording whom the
 * session would be for. Cookies live in one jar per simulated browser.
 */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
const signIns = vi.hoisted(() => [] as { provider: string; redirectTo?: string; user: { id: string; email: string } | null }[]);
const jar = vi.hoisted(() => new Map<string, string>());
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
  signIn: async (provider: string, options: { grant?: string; redirectTo?: string }) => {
    const { authorizeSessionGrant } = await import("@/lib/auth/session-grant");
    const user = provider === "session-grant" ? await authorizeSessionGrant(options) : null;
    signIns.push({ provider, redirectTo: options.redirectTo, user });
    if (!user) throw new (await import("next-auth")).AuthError("refused");
  },
  signOut: async () => undefined,
}));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 250)}` }),
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
    delete: (options: string | { name: string }) => void jar.delete(typeof options === "string" ? options : options.name),
  }),
}));

import { confirmSignUpAction, signUpAction } from "@/lib/actions/auth";
import { acceptInviteAction } from "@/lib/actions/password";
import { inviteMemberAction } from "@/lib/actions/team";
import { authorizeSessionGrant, issueSessionGrant, redeemSessionGrant, SESSION_GRANT_TTL_MS } from "@/lib/auth/session-grant";
import { SIGN_UP_BROWSER_COOKIE } from "@/lib/auth/signup-browser";
import { openSignUp, SIGN_UP_LINK_INVALID, SIGN_UP_LINK_TTL_MS } from "@/lib/auth/signup-link";
import { invites, mailOutbox } from "@/lib/db/schema";
import { findUserByEmail } from "@/lib/identity/membership";
import { verifyPassword } from "@/lib/identity/password";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { findOpenInvite } from "@/lib/merchants/invites";
import ConfirmSignUpPage from "@/app/(auth)/sign-up/confirm/[token]/page";
import { setUpTestDb, unique } from "./helpers/db";

const t = setUpTestDb();

beforeEach(() => {
  session.userId = undefined;
  signIns.length = 0;
  jar.clear();
});

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

/** What the link's page hands its form: whether it will ask for the password (opening it is a GET). */
async function openLinkPage(token: string): Promise<{ sameBrowser: boolean } | "invalid"> {
  const page = await ConfirmSignUpPage({ params: Promise.resolve({ token }) });
  const form = (page.props as { children?: unknown[] }).children?.find(
    (c) => (c as { props?: { sameBrowser?: boolean } })?.props?.sameBrowser !== undefined,
  ) as { props: { sameBrowser: boolean } } | undefined;
  return form ? { sameBrowser: form.props.sameBrowser } : "invalid";
}

async function signUp() {
  const id = unique("link");
  const input = { name: "Lina Link", email: `${id}@example.com`, password: "lina-pass-1234", merchantName: `Lina ${id}`, commerceAccount: id };
  expect(await signUpAction(input)).toEqual({ ok: true, data: { email: input.email } });
  const token = (await mailTo(input.email)).text.match(/\/sign-up\/confirm\/([A-Za-z0-9_-]+)/)![1]!;
  const browser = jar.get(SIGN_UP_BROWSER_COOKIE)!;
  expect(browser).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // The link holds only a digest of the browser's mark, sealed.
  expect(Buffer.from(token, "base64url").toString("latin1")).not.toContain(browser);
  return { input, token, browser };
}

describe("confirming a sign-up", () => {
  it("in the browser that signed up needs no password, signs in once, and opening the link changed nothing", async () => {
    const { input, token } = await signUp();
    // Opening the link, even many times (mail scanners), creates nothing and uses nothing up.
    expect(await openLinkPage(token)).toEqual({ sameBrowser: true });
    expect(await openLinkPage(token)).toEqual({ sameBrowser: true });
    expect(await findUserByEmail(t.db, input.email)).toBeUndefined();

    expect(await confirmSignUpAction({ token })).toEqual({ ok: true, data: undefined });
    const user = await findUserByEmail(t.db, input.email);
    expect(user).toMatchObject({ name: "Lina Link", role: "owner" });
    expect(signIns).toEqual([{ provider: "session-grant", redirectTo: "/home", user: expect.objectContaining({ id: user!.id, email: input.email }) }]);
    // The password chosen at sign-up is the account's.
    expect(await verifyPassword(input.password, user!.passwordHash)).toBe(true);
    expect(jar.has(SIGN_UP_BROWSER_COOKIE)).toBe(false);

    // Used once: the browser's mark went with it, and even with the password nothing more is created.
    expect(await confirmSignUpAction({ token })).toMatchObject({ ok: false, fieldErrors: { password: "Password is required" } });
    expect(await confirmSignUpAction({ token, password: input.password })).toMatchObject({
      ok: false,
      message: expect.stringContaining("already has an account"),
    });
    expect(signIns).toHaveLength(1);
  });

  it("anywhere else asks for the password: the link alone, or with a made-up mark, gives no session", async () => {
    const { input, token, browser } = await signUp();
    jar.clear(); // another device, or a mail scanner
    expect(await openLinkPage(token)).toEqual({ sameBrowser: false });
    expect(await confirmSignUpAction({ token })).toMatchObject({ ok: false, fieldErrors: { password: "Password is required" } });
    jar.set(SIGN_UP_BROWSER_COOKIE, `${browser.slice(0, 42)}${browser.endsWith("A") ? "B" : "A"}`);
    expect(await openLinkPage(token)).toEqual({ sameBrowser: false });
    expect(await confirmSignUpAction({ token, password: "" })).toMatchObject({ ok: false, fieldErrors: { password: "Password is required" } });
    expect(await confirmSignUpAction({ token, password: "not-the-one-1" })).toMatchObject({
      ok: false,
      fieldErrors: { password: "This is not the password you chose when signing up" },
    });
    expect(await findUserByEmail(t.db, input.email)).toBeUndefined();
    expect(signIns).toEqual([]);

    // With the password it works from anywhere, and signs that browser in.
    expect(await confirmSignUpAction({ token, password: input.password })).toEqual({ ok: true, data: undefined });
    expect(signIns.map((s) => s.user?.email)).toEqual([input.email]);
  });

  it("in the same browser a wrong password is still refused; an expired or altered link is the invalid-link page", async () => {
    const { input, token } = await signUp();
    expect(await confirmSignUpAction({ token, password: "not-the-one-1" })).toMatchObject({ ok: false, fieldErrors: { password: expect.any(String) } });
    expect(openSignUp(token, Date.now() + SIGN_UP_LINK_TTL_MS + 1)).toBeUndefined();
    const altered = `${token.slice(0, 40)}${token[40] === "A" ? "B" : "A"}${token.slice(41)}`;
    expect(await openLinkPage(altered)).toBe("invalid");
    expect(await confirmSignUpAction({ token: altered })).toMatchObject({ ok: false, message: SIGN_UP_LINK_INVALID });
    vi.useFakeTimers({ now: Date.now() + SIGN_UP_LINK_TTL_MS + 1000, toFake: ["Date"] });
    try {
      expect(await openLinkPage(token)).toBe("invalid");
      expect(await confirmSignUpAction({ token })).toMatchObject({ ok: false, message: SIGN_UP_LINK_INVALID });
    } finally {
      vi.useRealTimers();
    }
    expect(await findUserByEmail(t.db, input.email)).toBeUndefined();
    expect(signIns).toEqual([]);
  });
});

describe("accepting an invitation", () => {
  async function invited() {
    const id = unique("inv");
    const created = await createMerchantWithOwner(t.db, {
      name: "Olive",
      email: `${id}@example.com`,
      password: "olive-pass-1234",
      merchantName: `Shop ${id}`,
      commerceAccount: id,
    });
    if (!created.ok) throw new Error("fixture");
    session.userId = created.value.user.id;
    const email = `${unique("sam")}@example.com`;
    expect(await inviteMemberAction({ name: "Sam Support", email, role: "support" })).toEqual({ ok: true, data: undefined });
    session.userId = undefined;
    const token = (await mailTo(email)).text.match(/\/invite\/([A-Za-z0-9_-]+)/)![1]!;
    return { email, token, merchantId: created.value.merchant.id };
  }

  it("signs the new member in, after the link was used up in the same request; the link works once", async () => {
    const { email, token, merchantId } = await invited();
    // Opening the page reads the invitation; it stays open.
    expect(await findOpenInvite(t.db, token)).toMatchObject({ email });
    expect(await findOpenInvite(t.db, token)).toMatchObject({ email });
    expect(signIns).toEqual([]);

    expect(await acceptInviteAction({ token, name: "Samantha S.", password: "sams-own-pass-5", confirmPassword: "sams-own-pass-5" })).toEqual({
      ok: true,
      data: { email },
    });
    const member = await findUserByEmail(t.db, email);
    expect(member).toMatchObject({ merchantId, role: "support", name: "Samantha S." });
    expect(signIns).toEqual([{ provider: "session-grant", redirectTo: "/home", user: expect.objectContaining({ id: member!.id }) }]);
    const [row] = await t.db.select({ acceptedAt: invites.acceptedAt }).from(invites).where(eq(invites.email, email));
    expect(row!.acceptedAt).not.toBeNull();

    expect(await acceptInviteAction({ token, name: "Mallory", password: "other-pass-555", confirmPassword: "other-pass-555" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("no longer valid"),
    });
    expect(signIns).toHaveLength(1);
    expect(await findUserByEmail(t.db, email)).toMatchObject({ name: "Samantha S." });
  });

  it("an expired invitation signs no one in; a blank name is named on its field", async () => {
    const { email, token } = await invited();
    expect(await acceptInviteAction({ token, name: " ", password: "sams-own-pass-5", confirmPassword: "sams-own-pass-5" })).toMatchObject({
      ok: false,
      fieldErrors: { name: "Name is required" },
    });
    await t.db
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.email, email));
    expect(await acceptInviteAction({ token, password: "sams-own-pass-5", confirmPassword: "sams-own-pass-5" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("no longer valid"),
    });
    expect(await findUserByEmail(t.db, email)).toBeUndefined();
    expect(signIns).toEqual([]);
  });
});

describe("session grants", () => {
  it("work once, for their user, within 30 seconds; anything else is refused", async () => {
    const id = unique("grant");
    const created = await createMerchantWithOwner(t.db, {
      name: "G",
      email: `${id}@example.com`,
      password: "grant-pass-1234",
      merchantName: id,
      commerceAccount: id,
    });
    if (!created.ok) throw new Error("fixture");
    const grant = issueSessionGrant(created.value.user.id);
    expect(await authorizeSessionGrant({ grant })).toMatchObject({ id: created.value.user.id, sessionVersion: 0 });
    expect(await authorizeSessionGrant({ grant })).toBeNull();
    const late = issueSessionGrant(created.value.user.id);
    expect(redeemSessionGrant(late, Date.now() + SESSION_GRANT_TTL_MS + 1)).toBeUndefined();
    for (const forged of [undefined, "", "x".repeat(43), ["a"], { grant: 1 }]) expect(await authorizeSessionGrant({ grant: forged })).toBeNull();
  });
});

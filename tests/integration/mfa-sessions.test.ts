import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

/** The browser the server actions run for: its cookies (next-auth reads and sets them) and address. */
const browser = vi.hoisted(() => ({ cookies: new Map<string, string>(), address: "192.0.2.130" }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/headers", () => {
  const cookieHeader = () => [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  return {
    headers: async () => new Headers({ host: "localhost:3000", "x-forwarded-for": browser.address, cookie: cookieHeader() }),
    cookies: async () => ({
      getAll: () => [...browser.cookies].map(([name, value]) => ({ name, value })),
      get: (name: string) => (browser.cookies.has(name) ? { name, value: browser.cookies.get(name)! } : undefined),
      set: (name: string, value: string, options?: { maxAge?: number }) => {
        if (value === "" || options?.maxAge === 0) browser.cookies.delete(name);
        else browser.cookies.set(name, value);
      },
      delete: (name: string) => browser.cookies.delete(name),
    }),
  };
});

import { generate } from "otplib";
import { confirmMfaEnrolmentAction, disableMfaAction, startMfaEnrolmentAction } from "@/lib/actions/mfa";
import { users } from "@/lib/db/schema";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { setUpTestDb, unique } from "./helpers/db";
import { postCredentials, sessionEmail, signInOverHttp } from "./helpers/sign-in-http";

/**
 * Two-factor changes through the Settings page's server actions, with real next-auth sessions:
 * setting it up and turning it off ask for the current password, and both end the person's other
 * sessions while this browser stays signed in (as a password change does).
 */
const t = setUpTestDb();
const PASSWORD = "owner-pass-1234";
const now = () => Math.floor(Date.now() / 1000);

/** An owner signed in in this browser. */
async function signedInOwner() {
  const account = unique("mfas");
  const email = `${account}@example.com`;
  const created = await createMerchantWithOwner(t.db, { email, password: PASSWORD, name: "Mo Owner", merchantName: "Shop", commerceAccount: account });
  if (!created.ok) throw new Error(JSON.stringify(created.problems));
  const here = await signInOverHttp(email, PASSWORD, browser.address);
  if (!here.cookie) throw new Error(`setup: sign-in ${here.outcome}`);
  browser.cookies.clear();
  const [name, value] = here.cookie.split("=") as [string, string];
  browser.cookies.set(name, value);
  return { email, userId: created.value.user.id, cookie: here.cookie, cookieName: name };
}

/** The session cookie this browser holds now. */
const currentCookie = (name: string) => `${name}=${browser.cookies.get(name)}`;

async function twoFactorRow(userId: string) {
  const [row] = await t.db.select({ enabledAt: users.totpEnabledAt, pending: users.totpPendingSecret }).from(users).where(eq(users.id, userId));
  return row!;
}

describe("two-factor changes ask for the current password", () => {
  it("setting it up without the password or with a wrong one is refused on the password field, and nothing changes", async () => {
    const { userId } = await signedInOwner();
    expect(await startMfaEnrolmentAction({})).toMatchObject({ ok: false, fieldErrors: { password: "Current password is required" } });
    expect(await startMfaEnrolmentAction({ password: "wrong-pass-000" })).toMatchObject({
      ok: false,
      fieldErrors: { password: "The current password is not correct" },
    });
    expect(await twoFactorRow(userId)).toEqual({ enabledAt: null, pending: null });

    const started = await startMfaEnrolmentAction({ password: PASSWORD });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const pending = (await twoFactorRow(userId)).pending;
    expect(pending).toMatch(/^v2\./);
    const code = await generate({ secret: started.data.secret, epoch: now() });
    expect(await confirmMfaEnrolmentAction({ code })).toMatchObject({ ok: false, fieldErrors: { password: "Current password is required" } });
    expect(await confirmMfaEnrolmentAction({ code, password: "wrong-pass-000" })).toMatchObject({
      ok: false,
      fieldErrors: { password: "The current password is not correct" },
    });
    expect(await twoFactorRow(userId)).toEqual({ enabledAt: null, pending });
  });

  it("turning it off needs the password as well as a code: a right code with a wrong password leaves it on", async () => {
    const { userId } = await signedInOwner();
    const started = await startMfaEnrolmentAction({ password: PASSWORD });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const confirmed = await confirmMfaEnrolmentAction({ password: PASSWORD, code: await generate({ secret: started.data.secret, epoch: now() - 30 }) });
    if (!confirmed.ok) throw new Error(JSON.stringify(confirmed));
    const [recovery] = confirmed.data.recoveryCodes;
    expect(await disableMfaAction({ code: recovery })).toMatchObject({ ok: false, fieldErrors: { password: "Current password is required" } });
    expect(await disableMfaAction({ password: "wrong-pass-000", code: recovery })).toMatchObject({
      ok: false,
      fieldErrors: { password: "The current password is not correct" },
    });
    expect((await twoFactorRow(userId)).enabledAt).toBeInstanceOf(Date);
    // The refused tries spent no recovery code.
    expect(await disableMfaAction({ password: PASSWORD, code: recovery })).toEqual({ ok: true, data: undefined });
    expect((await twoFactorRow(userId)).enabledAt).toBeNull();
  });
});

describe("two-factor changes end the person's other sessions", () => {
  it("turning it on ends the sessions elsewhere and this browser's old cookie; this browser stays signed in", async () => {
    const { email, cookie: before, cookieName } = await signedInOwner();
    const elsewhere = await signInOverHttp(email, PASSWORD, "198.51.100.131");
    expect(await sessionEmail(elsewhere.cookie!)).toBe(email);

    const started = await startMfaEnrolmentAction({ password: PASSWORD });
    if (!started.ok) throw new Error(JSON.stringify(started));
    expect(await confirmMfaEnrolmentAction({ password: PASSWORD, code: await generate({ secret: started.data.secret, epoch: now() }) })).toMatchObject({
      ok: true,
    });

    expect(await sessionEmail(elsewhere.cookie!)).toBeNull();
    expect(await sessionEmail(before)).toBeNull();
    expect(currentCookie(cookieName)).not.toBe(before);
    expect(await sessionEmail(currentCookie(cookieName))).toBe(email);
  });

  it("turning it off ends the sessions elsewhere (signed in with a code) and this browser's old cookie; this browser stays signed in", async () => {
    const { email, cookieName } = await signedInOwner();
    const started = await startMfaEnrolmentAction({ password: PASSWORD });
    if (!started.ok) throw new Error(JSON.stringify(started));
    const confirmed = await confirmMfaEnrolmentAction({ password: PASSWORD, code: await generate({ secret: started.data.secret, epoch: now() - 30 }) });
    if (!confirmed.ok) throw new Error(JSON.stringify(confirmed));
    const [first, second] = confirmed.data.recoveryCodes;

    const address = "198.51.100.132";
    const step = await signInOverHttp(email, PASSWORD, address);
    const challenge = step.outcome.slice("second_factor:".length);
    const elsewhere = await postCredentials({ challenge, code: first! }, address);
    expect(await sessionEmail(elsewhere.cookie!)).toBe(email);
    const before = currentCookie(cookieName);
    expect(await sessionEmail(before)).toBe(email);

    expect(await disableMfaAction({ password: PASSWORD, code: second! })).toEqual({ ok: true, data: undefined });

    expect(await sessionEmail(elsewhere.cookie!)).toBeNull();
    expect(await sessionEmail(before)).toBeNull();
    expect(await sessionEmail(currentCookie(cookieName))).toBe(email);
  });
});

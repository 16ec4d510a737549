import { flushLog } from "@/lib/logger";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
const request = vi.hoisted(() => ({ address: "198.51.100.1" }));
// signIn: accepting an invitation signs the member in (tests/integration/link-sessions.test.ts checks whom).
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null), signIn: async () => undefined }));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("@/lib/auth/reissue", () => ({ reissueSession: async () => true }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/headers", () => ({ headers: async () => new Headers({ "x-forwarded-for": request.address }) }));

import { changePasswordAction, renameBusinessAction } from "@/lib/actions/account";
import { acceptInviteAction, forgotPasswordAction, resetPasswordAction } from "@/lib/actions/password";
import { inviteMemberAction, resendInviteAction, revokeInviteAction } from "@/lib/actions/team";
import { invites, merchants, passwordResets, users } from "@/lib/db/schema";
import { findPasswordReset } from "@/lib/identity/account";
import { findUserByEmail } from "@/lib/identity/membership";
import { verifyPassword } from "@/lib/identity/password";
import { listOutbox } from "@/lib/mail";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { findOpenInvite, listPendingInvites } from "@/lib/merchants/invites";
import { addTeamMember } from "@/lib/merchants/team";
import { setUpTestDb, unique } from "./helpers/db";

/**
 * Account self-service through the server actions, with a real SMTP server on 127.0.0.1
 * receiving what nodemailer sends; the tests follow the links found in the received messages.
 */
const t = setUpTestDb();
const APP_URL = "https://po.example.test";
const PASSWORD = "first-pass-1234";

type Received = { to: string[]; raw: string; body: string };
const inbox: Received[] = [];
const waiting: { to: string; resolve: (m: Received) => void }[] = [];
let smtpDelayMs = 0;
let smtp: SMTPServer;

/** Quoted-printable soft breaks and escapes undone, so a long link reads as one line. */
function decodeBody(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join("\n\n");
  return body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function nextMailTo(to: string): Promise<Received> {
  const already = inbox.find((m) => m.to.includes(to));
  if (already) {
    inbox.splice(inbox.indexOf(already), 1);
    return Promise.resolve(already);
  }
  return new Promise((resolve) => waiting.push({ to, resolve }));
}

function deliver(message: Received) {
  const index = waiting.findIndex((w) => message.to.includes(w.to));
  if (index >= 0) waiting.splice(index, 1)[0]!.resolve(message);
  else inbox.push(message);
}

function linkIn(message: Received, path: "reset-password" | "invite"): { url: string; token: string } {
  const match = message.body.match(new RegExp(`${APP_URL.replace(/\./g, "\\.")}/${path}/([A-Za-z0-9_-]+)`));
  expect(match, message.body).not.toBeNull();
  return { url: match![0], token: match![1]! };
}

let logged = "";
const previousEnv = { SMTP_URL: process.env.SMTP_URL, APP_URL: process.env.APP_URL, LOG_LEVEL: process.env.LOG_LEVEL };

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, smtpSession, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (raw += chunk));
      stream.on("end", () => {
        const to = smtpSession.envelope.rcptTo.map((r) => r.address.toLowerCase());
        setTimeout(() => {
          deliver({ to, raw, body: decodeBody(raw) });
          callback();
        }, smtpDelayMs);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as { port: number };
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  process.env.APP_URL = APP_URL;
  process.env.LOG_LEVEL = "info";
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(resolve));
  for (const [name, value] of Object.entries(previousEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

beforeEach(() => {
  session.userId = undefined;
  smtpDelayMs = 0;
  logged = "";
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logged += String(chunk);
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  });
});

afterEach(() => {
  flushLog();
  vi.restoreAllMocks();
  // No link and no token ever reaches the log, whatever the test did.
  expect(logged).not.toMatch(/reset-password\/|\/invite\/[A-Za-z0-9_-]{20}/);
});

async function owner() {
  const id = unique("acct");
  const created = await createMerchantWithOwner(t.db, {
    name: "Olive Owner",
    email: `${id}@example.com`,
    password: PASSWORD,
    merchantName: `Shop ${id}`,
    commerceAccount: id,
  });
  if (!created.ok) throw new Error("fixture");
  return { ...created.value, email: `${id}@example.com` };
}

async function passwordWorks(email: string, password: string): Promise<boolean> {
  const user = await findUserByEmail(t.db, email);
  return Boolean(user && (await verifyPassword(password, user.passwordHash)));
}

describe("forgotten password", () => {
  it("e-mails a single-use link through SMTP_URL; following it sets the new password", async () => {
    const { email } = await owner();
    expect(await forgotPasswordAction({ email: email.toUpperCase() })).toEqual({ ok: true, data: undefined });
    const mail = await nextMailTo(email);
    expect(mail.raw).toMatch(/^Subject: Reset your Payment Orchestrator password/m);
    const { url, token } = linkIn(mail, "reset-password");
    expect(url).toBe(`${APP_URL}/reset-password/${token}`);
    expect(token).toHaveLength(43);
    // Stored only as its SHA-256.
    const stored = await t.db.select().from(passwordResets);
    expect(stored.some((r) => r.tokenHash === token)).toBe(false);
    expect(await findPasswordReset(t.db, token)).toEqual({ email });

    const mismatch = await resetPasswordAction({ token, password: "brand-new-pass-77", confirmPassword: "other-pass-77" });
    expect(mismatch).toMatchObject({ ok: false, fieldErrors: { confirmPassword: "The passwords do not match" } });
    const weak = await resetPasswordAction({ token, password: "short", confirmPassword: "short" });
    expect(weak).toMatchObject({ ok: false, fieldErrors: { password: "Password must be at least 10 characters" } });

    expect(await resetPasswordAction({ token, password: "brand-new-pass-77", confirmPassword: "brand-new-pass-77" })).toEqual({ ok: true, data: { email } });
    expect(await passwordWorks(email, "brand-new-pass-77")).toBe(true);
    expect(await passwordWorks(email, PASSWORD)).toBe(false);

    // Single use: the same link again changes nothing and says why.
    const again = await resetPasswordAction({ token, password: "another-pass-88", confirmPassword: "another-pass-88" });
    expect(again).toMatchObject({ ok: false, message: expect.stringContaining("no longer valid") });
    expect(await findPasswordReset(t.db, token)).toBeUndefined();
    expect(await passwordWorks(email, "brand-new-pass-77")).toBe(true);
  });

  it("refuses a link after its 30 minutes and an unknown or malformed one", async () => {
    const { email, user } = await owner();
    await forgotPasswordAction({ email });
    const { token } = linkIn(await nextMailTo(email), "reset-password");
    await t.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, user.id));
    expect(await findPasswordReset(t.db, token)).toBeUndefined();
    const expired = await resetPasswordAction({ token, password: "brand-new-pass-77", confirmPassword: "brand-new-pass-77" });
    expect(expired).toMatchObject({ ok: false, message: expect.stringContaining("no longer valid") });
    expect(await passwordWorks(email, PASSWORD)).toBe(true);
    for (const bad of ["x".repeat(43), "not a token", "../../etc"]) {
      expect(await resetPasswordAction({ token: bad, password: "brand-new-pass-77", confirmPassword: "brand-new-pass-77" })).toMatchObject({ ok: false });
    }
  });

  it("answers the same for an unknown e-mail, sends nothing, and never waits for the mail server", async () => {
    const { email } = await owner();
    const unknown = `${unique("nobody")}@example.com`;
    smtpDelayMs = 3000;
    const startedKnown = Date.now();
    const known = await forgotPasswordAction({ email });
    const knownMs = Date.now() - startedKnown;
    const stranger = await forgotPasswordAction({ email: unknown });
    expect(stranger).toEqual(known);
    // The answer came before the SMTP server accepted the message: its timing tells nothing.
    expect(knownMs).toBeLessThan(2000);
    await nextMailTo(email);
    smtpDelayMs = 0;
    await forgotPasswordAction({ email });
    await nextMailTo(email);
    expect(inbox.filter((m) => m.to.includes(unknown))).toEqual([]);
    expect(waiting).toEqual([]);
  });

  it("stops sending after 5 requests for one account in 15 minutes, with the same answer", async () => {
    const { email } = await owner();
    request.address = "198.51.100.77";
    for (let i = 0; i < 6; i++) expect(await forgotPasswordAction({ email })).toEqual({ ok: true, data: undefined });
    for (let i = 0; i < 5; i++) await nextMailTo(email);
    const rows = await t.db.select().from(passwordResets).innerJoin(users, eq(users.id, passwordResets.userId)).where(eq(users.email, email));
    expect(rows).toHaveLength(5);
    request.address = "198.51.100.1";
  });

  it("names the field for a bad e-mail", async () => {
    expect(await forgotPasswordAction({ email: "not-an-email" })).toMatchObject({ ok: false, fieldErrors: { email: expect.stringContaining("valid e-mail") } });
  });
});

describe("the embedded default without SMTP_URL", () => {
  it("keeps the message in the outbox and logs one line with the link redacted", async () => {
    const url = process.env.SMTP_URL;
    delete process.env.SMTP_URL;
    try {
      const { email } = await owner();
      await forgotPasswordAction({ email });
      await vi.waitFor(async () => expect((await listOutbox(t.db, 500)).some((m) => m.to === email)).toBe(true));
      const stored = (await listOutbox(t.db, 500)).find((m) => m.to === email)!;
      const token = stored.text.match(/reset-password\/([A-Za-z0-9_-]{43})/)![1]!;
      expect(await findPasswordReset(t.db, token)).toEqual({ email });
      flushLog();
      const line = logged.split("\n").find((l) => l.includes("mail stored in outbox"))!;
      expect(line).toContain("[link redacted]");
      expect(line).not.toContain(token);
    } finally {
      process.env.SMTP_URL = url;
    }
  });
});

describe("invitations", () => {
  it("e-mails the invitee a link to set their own password; they join with the chosen role, once", async () => {
    const { user: me, merchant } = await owner();
    session.userId = me.id;
    const email = `${unique("sam")}@example.com`;
    expect(await inviteMemberAction({ name: "Sam Support", email, role: "support" })).toEqual({ ok: true, data: undefined });
    const mail = await nextMailTo(email);
    expect(mail.body).toContain(`join ${merchant.name}`);
    const { token } = linkIn(mail, "invite");
    expect(await findOpenInvite(t.db, token)).toEqual({ name: "Sam Support", email, role: "support", merchantName: merchant.name });
    expect((await listPendingInvites(t.db, merchant.id)).map((i) => i.email)).toEqual([email]);

    session.userId = undefined;
    expect(await acceptInviteAction({ token, password: "sams-own-pass-5", confirmPassword: "sams-own-pass-5" })).toEqual({ ok: true, data: { email } });
    const sam = await findUserByEmail(t.db, email);
    expect(sam).toMatchObject({ merchantId: merchant.id, role: "support", name: "Sam Support" });
    expect(await passwordWorks(email, "sams-own-pass-5")).toBe(true);
    expect(await listPendingInvites(t.db, merchant.id)).toEqual([]);
    const again = await acceptInviteAction({ token, password: "other-pass-55", confirmPassword: "other-pass-55" });
    expect(again).toMatchObject({ ok: false, message: expect.stringContaining("no longer valid") });
  });

  it("refuses an e-mail that already has an account or an open invitation, naming the field", async () => {
    const { user: me, email: mine } = await owner();
    session.userId = me.id;
    expect(await inviteMemberAction({ name: "Me", email: mine, role: "owner" })).toMatchObject({
      ok: false,
      fieldErrors: { email: "This person is already a member of your team" },
    });
    const email = `${unique("dup")}@example.com`;
    await inviteMemberAction({ name: "Dup", email, role: "support" });
    await nextMailTo(email);
    expect(await inviteMemberAction({ name: "Dup", email, role: "support" })).toMatchObject({
      ok: false,
      fieldErrors: { email: expect.stringContaining("already invited") },
    });
    expect(await inviteMemberAction({ name: "", email: "x", role: "boss" })).toMatchObject({
      ok: false,
      fieldErrors: { name: "Name is required", email: expect.any(String), role: "Choose a role from the list" },
    });
  });

  it("Resend replaces the link, Revoke ends it, an expired one is refused; only this merchant's owners may", async () => {
    const { user: me, merchant } = await owner();
    const other = await owner();
    session.userId = me.id;
    const email = `${unique("pat")}@example.com`;
    await inviteMemberAction({ name: "Pat", email, role: "owner" });
    const first = linkIn(await nextMailTo(email), "invite").token;
    const [pending] = await listPendingInvites(t.db, merchant.id);

    expect(await resendInviteAction({ inviteId: pending!.id })).toEqual({ ok: true, data: undefined });
    const second = linkIn(await nextMailTo(email), "invite").token;
    expect(second).not.toBe(first);
    expect(await findOpenInvite(t.db, first)).toBeUndefined();
    expect(await findOpenInvite(t.db, second)).toBeDefined();

    await t.db
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.id, pending!.id));
    expect(await acceptInviteAction({ token: second, password: "pats-pass-1234", confirmPassword: "pats-pass-1234" })).toMatchObject({ ok: false });
    expect(await listPendingInvites(t.db, merchant.id)).toHaveLength(1);

    // Another merchant's owner cannot touch it; a support member cannot invite at all.
    session.userId = other.user.id;
    expect(await revokeInviteAction({ inviteId: pending!.id })).toMatchObject({ ok: false, message: "This invitation no longer exists." });
    expect(await resendInviteAction({ inviteId: pending!.id })).toMatchObject({ ok: false });
    const support = await addTeamMember(t.db, merchant.id, { name: "S", email: `${unique("s")}@example.com`, role: "support", password: PASSWORD });
    session.userId = support.ok ? support.value.id : undefined;
    expect(await inviteMemberAction({ name: "X", email: `${unique("x")}@example.com`, role: "owner" })).toMatchObject({
      ok: false,
      message: "Your role (Support) may not invite members, change their roles and remove them.",
    });

    session.userId = me.id;
    await resendInviteAction({ inviteId: pending!.id });
    const third = linkIn(await nextMailTo(email), "invite").token;
    expect(await revokeInviteAction({ inviteId: pending!.id })).toEqual({ ok: true, data: undefined });
    expect(await findOpenInvite(t.db, third)).toBeUndefined();
    expect(await acceptInviteAction({ token: third, password: "pats-pass-1234", confirmPassword: "pats-pass-1234" })).toMatchObject({ ok: false });
    expect(await findUserByEmail(t.db, email)).toBeUndefined();
  });

  it("tells the owner when the mail server is unreachable and keeps the invitation for Resend", async () => {
    const { user: me, merchant } = await owner();
    session.userId = me.id;
    const url = process.env.SMTP_URL;
    process.env.SMTP_URL = "smtp://127.0.0.1:1";
    const errors: unknown[] = [];
    try {
      const email = `${unique("down")}@example.com`;
      const result = await inviteMemberAction({ name: "Down", email, role: "support" });
      expect(result).toMatchObject({ ok: false, message: expect.stringContaining("could not be sent") });
      expect((await listPendingInvites(t.db, merchant.id)).map((i) => i.email)).toEqual([email]);
      flushLog();
      errors.push(...logged.split("\n").filter((l) => l.includes("invitation e-mail failed")));
    } finally {
      process.env.SMTP_URL = url;
    }
    expect(errors).toHaveLength(1);
  });
});

describe("change password and business name", () => {
  it("checks the current password, the rules and the confirmation, then changes it", async () => {
    const { user: me, email } = await owner();
    session.userId = me.id;
    expect(await changePasswordAction({ currentPassword: "wrong-pass-123", password: "next-pass-1234", confirmPassword: "next-pass-1234" })).toMatchObject({
      ok: false,
      fieldErrors: { currentPassword: "The current password is not correct" },
    });
    expect(await changePasswordAction({ currentPassword: PASSWORD, password: "password123", confirmPassword: "password123" })).toMatchObject({
      ok: false,
      fieldErrors: { password: "This password is too common" },
    });
    expect(await changePasswordAction({ currentPassword: PASSWORD, password: "next-pass-1234", confirmPassword: "next-pass-9999" })).toMatchObject({
      ok: false,
      fieldErrors: { confirmPassword: "The passwords do not match" },
    });
    expect(await changePasswordAction({ currentPassword: PASSWORD, password: "next-pass-1234", confirmPassword: "next-pass-1234" })).toEqual({
      ok: true,
      data: undefined,
    });
    expect(await passwordWorks(email, "next-pass-1234")).toBe(true);
    session.userId = undefined;
    expect(await changePasswordAction({ currentPassword: "next-pass-1234", password: "third-pass-1234", confirmPassword: "third-pass-1234" })).toMatchObject({
      ok: false,
      message: "Your session has ended. Sign in again.",
    });
  });

  it("is rate-limited like sign-in: 10 wrong current passwords lock it for 15 minutes", async () => {
    const { user: me, email } = await owner();
    session.userId = me.id;
    const attempt = (current: string) => changePasswordAction({ currentPassword: current, password: "next-pass-1234", confirmPassword: "next-pass-1234" });
    for (let i = 0; i < 10; i++) expect(await attempt(`wrong-${i}-pass`)).toMatchObject({ ok: false, fieldErrors: { currentPassword: expect.any(String) } });
    expect(await attempt(PASSWORD)).toMatchObject({ ok: false, message: "Too many attempts. Wait 15 minutes and try again." });
    expect(await passwordWorks(email, PASSWORD)).toBe(true);
  });

  it("owners rename the business; support members and blank names are refused", async () => {
    const { user: me, merchant } = await owner();
    session.userId = me.id;
    expect(await renameBusinessAction({ merchantName: "  Renamed Shop  " })).toEqual({ ok: true, data: undefined });
    const read = async () => (await t.db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, merchant.id)))[0]!.name;
    expect(await read()).toBe("Renamed Shop");
    expect(await renameBusinessAction({ merchantName: "   " })).toMatchObject({ ok: false, fieldErrors: { merchantName: "Business name is required" } });
    const support = await addTeamMember(t.db, merchant.id, { name: "S", email: `${unique("s")}@example.com`, role: "support", password: PASSWORD });
    session.userId = support.ok ? support.value.id : undefined;
    expect(await renameBusinessAction({ merchantName: "Hijacked" })).toMatchObject({
      ok: false,
      message: "Your role (Support) may not change the business's settings.",
    });
    expect(await read()).toBe("Renamed Shop");
  });
});

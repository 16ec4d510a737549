import { describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => ({
  headers: async () => new Headers({ host: "localhost:3000", "x-forwarded-for": "192.0.2.90" }),
  cookies: async () => ({ getAll: () => [], get: () => undefined, set: () => undefined, delete: () => undefined }),
}));

import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { SIGN_IN_MAX_FAILURES } from "@/lib/auth/limits";
import { sealChallenge } from "@/lib/auth/second-factor";
import { auditLog } from "@/lib/db/schema";
import { findUserByEmail, findViewer } from "@/lib/identity/membership";
import { confirmEnrolment, startEnrolment } from "@/lib/identity/mfa/service";
import { endSessions } from "@/lib/identity/sessions";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { setUpTestDb, unique } from "./helpers/db";
import { postCredentials, sessionEmail, signInOverHttp, type SignInAnswer } from "./helpers/sign-in-http";

/**
 * Sign-in with a second factor through next-auth's own routes (the real authorize callback): the
 * password step of someone with two-factor on gives no session, only a sealed challenge; the
 * session comes with the challenge and a right code. Codes come from otplib, as an app makes them.
 * Each test uses an address of its own (the sign-in limit counts per account and address).
 */
const t = setUpTestDb();
const PASSWORD = "owner-pass-1234";
const now = () => Math.floor(Date.now() / 1000);
const codeAt = (secret: string, epoch: number) => generate({ secret, epoch });

/** An owner with two-factor on, enrolled with the code of the previous 30-second step (so the current one is still unused). */
async function enrolledOwner() {
  const account = unique("mfa");
  const email = `${account}@example.com`;
  const created = await createMerchantWithOwner(t.db, { email, password: PASSWORD, name: "Mira Owner", merchantName: "Shop", commerceAccount: account });
  if (!created.ok) throw new Error(JSON.stringify(created.problems));
  const user = (await findUserByEmail(t.db, email))!;
  const viewer = (await findViewer(t.db, user.id))!;
  const started = await startEnrolment(t.db, viewer, PASSWORD);
  if (!started.ok) throw new Error("setup: start");
  const confirmed = await confirmEnrolment(t.db, viewer, { password: PASSWORD, code: await codeAt(started.value.secret, now() - 30) });
  if (!confirmed.ok) throw new Error(`setup: confirm ${JSON.stringify(confirmed.problems)}`);
  return { email, user, secret: started.value.secret, recoveryCodes: confirmed.value.recoveryCodes };
}

function challengeOf(answer: SignInAnswer): string {
  expect(answer.cookie, "no session from the password alone").toBeUndefined();
  expect(answer.outcome).toMatch(/^second_factor:[A-Za-z0-9_-]{40,}$/);
  return answer.outcome.slice("second_factor:".length);
}

async function expectSignedIn(answer: SignInAnswer, email: string) {
  expect(answer.outcome).toBe("signed-in");
  expect(await sessionEmail(answer.cookie!)).toBe(email);
}

function expectRefused(answer: SignInAnswer, outcome: string) {
  expect(answer.outcome).toBe(outcome);
  expect(answer.cookie).toBeUndefined();
}

describe("sign-in with a second factor", () => {
  it("the right password alone gives no session; a wrong code is refused; the app's current code signs in", async () => {
    const { email, secret } = await enrolledOwner();
    const address = "203.0.113.10";
    const challenge = challengeOf(await signInOverHttp(email, PASSWORD, address));
    expectRefused(await postCredentials({ challenge, code: "000000" === (await codeAt(secret, now())) ? "111111" : "000000" }, address), "wrong_second_factor");
    expectRefused(await postCredentials({ challenge, code: "" }, address), "wrong_second_factor");
    await expectSignedIn(await postCredentials({ challenge, code: await codeAt(secret, now()) }, address), email);
  });

  it("a code is accepted once (its 30-second step is stored): the same code again is refused, the next step's is accepted", async () => {
    const { email, secret } = await enrolledOwner();
    const address = "203.0.113.11";
    const code = await codeAt(secret, now());
    await expectSignedIn(await postCredentials({ challenge: challengeOf(await signInOverHttp(email, PASSWORD, address)), code }, address), email);
    expectRefused(await postCredentials({ challenge: challengeOf(await signInOverHttp(email, PASSWORD, address)), code }, address), "wrong_second_factor");
    // The enrolment's own code (the step before) is refused too.
    expectRefused(
      await postCredentials({ challenge: challengeOf(await signInOverHttp(email, PASSWORD, address)), code: await codeAt(secret, now() - 30) }, address),
      "wrong_second_factor",
    );
    await expectSignedIn(
      await postCredentials({ challenge: challengeOf(await signInOverHttp(email, PASSWORD, address)), code: await codeAt(secret, now() + 30) }, address),
      email,
    );
  });

  it("a recovery code signs in once, typed in any case with or without its dash; used, it never works again", async () => {
    const { email, recoveryCodes } = await enrolledOwner();
    const address = "203.0.113.12";
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const [first, second] = recoveryCodes as [string, string];
    await expectSignedIn(await postCredentials({ challenge: challengeOf(await signInOverHttp(email, PASSWORD, address)), code: first }, address), email);
    expectRefused(
      await postCredentials({ challenge: challengeOf(await signInOverHttp(email, PASSWORD, address)), code: first }, address),
      "wrong_second_factor",
    );
    await expectSignedIn(
      await postCredentials({ challenge: challengeOf(await signInOverHttp(email, PASSWORD, address)), code: second.replace("-", "").toUpperCase() }, address),
      email,
    );
  });

  it("a made-up, altered or expired challenge is refused, and one dies when the person's sessions end", async () => {
    const { email, user, secret } = await enrolledOwner();
    const address = "203.0.113.13";
    const code = await codeAt(secret, now());
    const challenge = challengeOf(await signInOverHttp(email, PASSWORD, address));
    expectRefused(await postCredentials({ challenge: "A".repeat(80), code }, address), "expired_second_factor");
    const flipped = challenge.slice(0, -2) + (challenge.endsWith("AA") ? "BB" : "AA");
    expectRefused(await postCredentials({ challenge: flipped, code }, address), "expired_second_factor");
    const stale = sealChallenge({ userId: user.id, sessionVersion: user.sessionVersion, purpose: "second_factor" }, Date.now() - 6 * 60_000);
    expectRefused(await postCredentials({ challenge: stale, code }, address), "expired_second_factor");
    await endSessions(t.db, user.id);
    expectRefused(await postCredentials({ challenge, code }, address), "expired_second_factor");
  });

  it("wrong codes count against the sign-in limit with the password step: the address is then refused with 429, and each is in the audit log", async () => {
    const { email, user, secret } = await enrolledOwner();
    const address = "203.0.113.14";
    const challenge = challengeOf(await signInOverHttp(email, PASSWORD, address));
    const right = await codeAt(secret, now());
    const wrong = right === "123456" ? "654321" : "123456";
    for (let i = 1; i < SIGN_IN_MAX_FAILURES; i++) expectRefused(await postCredentials({ challenge, code: wrong }, address), "wrong_second_factor");
    const limited = await postCredentials({ challenge, code: right }, address);
    expect(limited).toMatchObject({ status: 429, outcome: "too_many_attempts" });
    expect(limited.cookie).toBeUndefined();
    const failures = await t.db.select().from(auditLog).where(eq(auditLog.actorId, user.id));
    expect(failures.filter((row) => row.action === "mfa.sign_in_failed")).toHaveLength(SIGN_IN_MAX_FAILURES - 1);
    expect(JSON.stringify(failures)).not.toContain(wrong);
  });

  it("someone without two-factor still signs in with the password alone", async () => {
    const account = unique("plain");
    const email = `${account}@example.com`;
    const created = await createMerchantWithOwner(t.db, { email, password: PASSWORD, name: "Pat", merchantName: "Shop", commerceAccount: account });
    expect(created.ok).toBe(true);
    await expectSignedIn(await signInOverHttp(email, PASSWORD, "203.0.113.15"), email);
    // A challenge field does not turn a password sign-in into anything else.
    expectRefused(await postCredentials({ challenge: "", code: "123456" }, "203.0.113.15"), "expired_second_factor");
  });
});

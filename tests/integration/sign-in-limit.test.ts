import { afterAll, describe, expect, it, vi } from "vitest";

// The per-address limit is an operator setting (50 by default); 15 here, still above the
// per-account limit of 10, so spraying many accounts is tested with a third of the password checks.
const previousPerAddress = vi.hoisted(() => {
  const previous = process.env.SIGN_IN_MAX_FAILURES_PER_ADDRESS;
  process.env.SIGN_IN_MAX_FAILURES_PER_ADDRESS = "15";
  return previous;
});
afterAll(() => {
  if (previousPerAddress === undefined) delete process.env.SIGN_IN_MAX_FAILURES_PER_ADDRESS;
  else process.env.SIGN_IN_MAX_FAILURES_PER_ADDRESS = previousPerAddress;
});

/** The address the dashboard's sign-in form (a server action) is posted from. */
const browser = vi.hoisted(() => ({ address: "192.0.2.80" }));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ host: "localhost:3000", "x-forwarded-for": browser.address }),
  cookies: async () => ({ getAll: () => [], get: () => undefined, set: () => undefined, delete: () => undefined }),
}));

import { signInAction } from "@/lib/actions/auth";
import { SIGN_IN_MAX_FAILURES, SIGN_IN_MAX_FAILURES_PER_ADDRESS, SIGN_IN_WINDOW_MS } from "@/lib/auth/limits";
import { waitAfterFailure } from "@/lib/auth/sign-in-limit";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { setUpTestDb, unique } from "./helpers/db";
import { sessionEmail, signInOverHttp, type SignInAnswer } from "./helpers/sign-in-http";

/**
 * The sign-in limit through next-auth's own routes (lib/auth/sign-in-limit.ts): failures are counted
 * per account and address, and per address; an account's failures from everywhere slow down the
 * addresses that failed for it but never refuse one that did not, so nobody can lock its owner out.
 * Each test uses addresses of its own.
 */
const t = setUpTestDb();
const PASSWORD = "owner-pass-1234";
const WINDOW_SECONDS = SIGN_IN_WINDOW_MS / 1000;

async function owner() {
  const account = unique("lim");
  const email = `${account}@example.com`;
  const created = await createMerchantWithOwner(t.db, { email, password: PASSWORD, name: "Owner", merchantName: "Shop", commerceAccount: account });
  if (!created.ok) throw new Error(JSON.stringify(created.problems));
  return email;
}

const guess = () => `${unique("guess")}@example.com`;

function expectChecked(answer: SignInAnswer, what: string) {
  expect(answer, what).toMatchObject({ status: 302, outcome: "credentials" });
}

function expectRefused(answer: SignInAnswer, longest: number) {
  expect(answer).toMatchObject({ status: 429, outcome: "too_many_attempts" });
  expect(answer.cookie).toBeUndefined();
  expect(answer.retryAfter).toBeGreaterThanOrEqual(1);
  expect(answer.retryAfter).toBeLessThanOrEqual(longest);
}

async function expectSignedIn(answer: SignInAnswer, email: string) {
  expect(answer.outcome).toBe("signed-in");
  expect(await sessionEmail(answer.cookie!)).toBe(email);
}

describe("sign-in limit", () => {
  it("wrong passwords for the owner from other addresses never refuse the right password from an address without failures", async () => {
    const email = await owner();
    // Two failures from each of five addresses: the account has SIGN_IN_MAX_FAILURES and is under attack.
    const attackers = Array.from({ length: SIGN_IN_MAX_FAILURES / 2 }, (_, i) => `198.51.100.${10 + i}`);
    for (const address of [...attackers, ...attackers]) expectChecked(await signInOverHttp(email, "wrong-pass-1234", address), address);
    // More fresh addresses are still checked, not refused: the account is slowed, not locked.
    for (const address of ["198.51.100.30", "198.51.100.31"]) expectChecked(await signInOverHttp(email, "wrong-pass-1234", address), address);
    // An address that failed twice must now wait before its next try, whatever the password.
    expectRefused(await signInOverHttp(email, PASSWORD, attackers.at(-1)!), waitAfterFailure(2) / 1000);
    // The owner, from a new address, signs in at once.
    await expectSignedIn(await signInOverHttp(email, PASSWORD, "203.0.113.40"), email);
  }, 120_000);

  it("an address is refused for an account after SIGN_IN_MAX_FAILURES failures for it, even with the right password; the owner elsewhere is not", async () => {
    const email = await owner();
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) expectChecked(await signInOverHttp(email, `wrong-pass-${i}-1234`, "198.51.100.50"), `attempt ${i + 1}`);
    expectRefused(await signInOverHttp(email, PASSWORD, "198.51.100.50"), WINDOW_SECONDS);
    await expectSignedIn(await signInOverHttp(email, PASSWORD, "203.0.113.51"), email);
    // The limited address stays limited after the owner's success elsewhere.
    expectRefused(await signInOverHttp(email, PASSWORD, "198.51.100.50"), WINDOW_SECONDS);
  }, 120_000);

  it("an address trying many accounts is refused after SIGN_IN_MAX_FAILURES_PER_ADDRESS failures; its successes do not count", async () => {
    const email = await owner();
    const sprayer = "198.51.100.70";
    for (let i = 0; i < SIGN_IN_MAX_FAILURES_PER_ADDRESS - 1; i++) expectChecked(await signInOverHttp(guess(), "wrong-pass-1234", sprayer), `attempt ${i + 1}`);
    // Someone signing in from the same address (an office) is not counted against it.
    for (let i = 0; i < 3; i++) await expectSignedIn(await signInOverHttp(email, PASSWORD, sprayer), email);
    expectChecked(await signInOverHttp(guess(), "wrong-pass-1234", sprayer), "the last failure allowed");
    expectRefused(await signInOverHttp(guess(), "wrong-pass-1234", sprayer), WINDOW_SECONDS);
    expectRefused(await signInOverHttp(email, PASSWORD, sprayer), WINDOW_SECONDS);
    await expectSignedIn(await signInOverHttp(email, PASSWORD, "203.0.113.71"), email);
  }, 180_000);

  it("simultaneous guesses from one address get no more than SIGN_IN_MAX_FAILURES password checks", async () => {
    const email = await owner();
    const answers = await Promise.all(
      Array.from({ length: 2 * SIGN_IN_MAX_FAILURES }, (_, i) => signInOverHttp(email, `wrong-pass-${i}-1234`, "198.51.100.90")),
    );
    expect(answers.filter((a) => a.outcome === "credentials")).toHaveLength(SIGN_IN_MAX_FAILURES);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(SIGN_IN_MAX_FAILURES);
  }, 120_000);

  it("the sign-in form says how long to wait", async () => {
    const email = await owner();
    browser.address = "198.51.100.95";
    for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) {
      expect(await signInAction({ email, password: `wrong-pass-${i}-1234` })).toMatchObject({ ok: false, message: "Wrong e-mail or password." });
    }
    const refused = await signInAction({ email, password: PASSWORD });
    expect(refused).toMatchObject({ ok: false, message: expect.stringMatching(/^Too many sign-in attempts\. Try again in ([1-9]\d*) (seconds|minutes?)\.$/) });
    // From another address the same form signs the owner in (next-auth redirects to Home).
    browser.address = "203.0.113.96";
    await expect(signInAction({ email, password: PASSWORD })).rejects.toThrow(/NEXT_REDIRECT/);
  }, 120_000);
});

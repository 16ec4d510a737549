import { type Attempt, createSharedHold, createSharedRateLimiter } from "@/lib/rate-limit/limiter";
import { SIGN_IN_MAX_FAILURES, SIGN_IN_MAX_FAILURES_PER_ADDRESS, SIGN_IN_WINDOW_MS } from "./limits";

/**
 * How failed sign-ins slow an attacker without giving them a switch that locks the real person out
 * (OWASP ASVS 2.2.1; the Authentication Cheat Sheet's notes on account lockout). Counted in fixed
 * windows of SIGN_IN_WINDOW_MS, shared by every instance on PostgreSQL:
 *
 * - per account and address: after SIGN_IN_MAX_FAILURES failures that address is refused for that
 *   account until the window ends, even with the right password;
 * - per address, whatever the accounts: refused after SIGN_IN_MAX_FAILURES_PER_ADDRESS failures
 *   (one address trying many accounts);
 * - per account, from all addresses: never refused. Past SIGN_IN_MAX_FAILURES failures the account
 *   is under attack, and an address that has failures of its own for it must then wait after each
 *   of them, 30 seconds doubling per failure up to the window. An address without failures for the
 *   account (the owner at a new place) signs in at once, so failures sent from elsewhere cannot
 *   keep its owner out.
 *
 * An attempt is counted before the password is checked and taken back when it succeeds, so
 * simultaneous guesses cannot all pass the check while the first are still being hashed.
 */
const pairs = createSharedRateLimiter("sign-in:account-address", SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS);
const addresses = createSharedRateLimiter("sign-in:address", SIGN_IN_MAX_FAILURES_PER_ADDRESS, SIGN_IN_WINDOW_MS);
const accounts = createSharedRateLimiter("sign-in:account", SIGN_IN_MAX_FAILURES, SIGN_IN_WINDOW_MS);
const spacing = createSharedHold("sign-in:spacing");

const FIRST_WAIT_MS = 30_000;

/** The wait after an address's nth failure for an account under attack. */
export function waitAfterFailure(failures: number): number {
  return Math.min(SIGN_IN_WINDOW_MS, FIRST_WAIT_MS * 2 ** Math.min(Math.max(failures, 1) - 1, 20));
}

export type SignInAttempt = { email: string; address: string };
/** What an admitted sign-in holds until it is judged: its counted attempts, to forgive on success. */
type Counted = { failures: number; account: Attempt; fromAddress: Attempt };
export type Admission = ({ admitted: true } & Counted) | { admitted: false; retryAfterSeconds: number };

const pairKey = ({ email, address }: SignInAttempt) => JSON.stringify([email, address]);

/** Decides whether a sign-in may check its password, counting it as a failure until it succeeds. */
export async function admitSignIn(attempt: SignInAttempt): Promise<Admission> {
  const pair = pairKey(attempt);
  // The account's count never refuses: past its limit the account is under attack, and an address
  // with failures of its own for it waits between tries.
  const account = await accounts.attempt(attempt.email);
  const refuse = async (retryAfterSeconds: number, ...counted: Attempt[]): Promise<Admission> => {
    await Promise.all([account, ...counted].map((c) => c.forgive()));
    return { admitted: false, retryAfterSeconds };
  };
  if (account.retryAfterSeconds > 0) {
    const wait = await spacing.wait(pair);
    if (wait > 0) return refuse(wait);
  }
  const tried = await pairs.attempt(pair);
  // Past the limit the pair's attempt stays counted (the window does not grow): only the others are taken back.
  if (tried.retryAfterSeconds > 0) return refuse(tried.retryAfterSeconds);
  const fromAddress = await addresses.attempt(attempt.address);
  if (fromAddress.retryAfterSeconds > 0) return refuse(fromAddress.retryAfterSeconds, tried);
  return { admitted: true, failures: tried.count, account, fromAddress };
}

/** A wrong password (or unknown e-mail) after `admitSignIn`: its counts stand. */
export async function recordSignInFailure(attempt: SignInAttempt, admission: Counted): Promise<void> {
  await spacing.hold(pairKey(attempt), waitAfterFailure(admission.failures));
}

/**
 * A right password with two-factor on: the sign-in is not over, so the address's attempts stay
 * counted until the code passes; only the account's is taken back (the second step counts its own).
 */
export async function recordPasswordBeforeSecondFactor(admission: Counted): Promise<void> {
  await admission.account.forgive();
}

/**
 * A right password: this address's failures for the account are forgiven and its attempt is taken
 * back from the address's count (only failures count, so an office signing in many people is never
 * refused for it). The account's failures stay: a success does not end an attack from elsewhere.
 */
export async function recordSignInSuccess(attempt: SignInAttempt, admission: Counted): Promise<void> {
  const pair = pairKey(attempt);
  await Promise.all([pairs.reset(pair), spacing.release(pair), admission.fromAddress.forgive(), admission.account.forgive()]);
}

/** The error code a refused sign-in carries through next-auth (its only channel): the wait in seconds. */
export function limitedCode(retryAfterSeconds: number): string {
  return `too_many_attempts:${Math.max(1, Math.ceil(retryAfterSeconds))}`;
}

/** The wait a code made by `limitedCode` carries, or undefined for any other code. */
export function retryAfterOfCode(code: string | null | undefined): number | undefined {
  const match = /^too_many_attempts:(\d{1,9})$/.exec(code ?? "");
  return match ? Number(match[1]) : undefined;
}

/** "40 seconds", "1 minute", "15 minutes": a wait as the sign-in form says it. */
export function waitInWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/** The sign-in and sign-up limits, each from the environment or its default (counted by lib/rate-limit/limiter.ts). */

function positiveIntegerFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

/**
 * Sign-in: failed attempts allowed per account from one address within the window, and the failures
 * of an account from all addresses past which its sign-ins slow down (SIGN_IN_MAX_FAILURES, default 10).
 */
export const SIGN_IN_MAX_FAILURES = positiveIntegerFromEnv("SIGN_IN_MAX_FAILURES", 10);
/** Sign-in: failed attempts allowed per address, whatever the accounts, within the window (SIGN_IN_MAX_FAILURES_PER_ADDRESS, default 50). */
export const SIGN_IN_MAX_FAILURES_PER_ADDRESS = positiveIntegerFromEnv("SIGN_IN_MAX_FAILURES_PER_ADDRESS", 5 * SIGN_IN_MAX_FAILURES);
/** Sign-in: the window, in minutes (SIGN_IN_WINDOW_MINUTES, default 15). */
export const SIGN_IN_WINDOW_MS = positiveIntegerFromEnv("SIGN_IN_WINDOW_MINUTES", 15) * 60_000;
/** Sign-up e-mails sent per client address in 15 minutes (SIGN_UP_MAX_PER_ADDRESS, default 20). */
export const SIGN_UP_MAX_PER_ADDRESS = positiveIntegerFromEnv("SIGN_UP_MAX_PER_ADDRESS", 20);

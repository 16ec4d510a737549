import "server-only";
import { generateSecret, generateURI, verify } from "otplib";

/**
 * TOTP (RFC 6238) through otplib 13: SHA-1, 6 digits, 30-second steps, the defaults every
 * authenticator app reads from an otpauth:// URI. A code is accepted for its own step and one step
 * either side (clock drift), and only for a step later than the last one accepted, so a code seen
 * once (over a shoulder, in a phishing relay that already used it) never works again.
 */
const TOTP_ISSUER = "Payment Orchestrator";
const TOLERANCE_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(secret: string, account: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: account, secret });
}

/** The step the code belongs to when it is right and later than `afterStep`; undefined otherwise. */
export async function verifyTotp(secret: string, code: string, afterStep: number | null, now = Date.now()): Promise<number | undefined> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return undefined;
  try {
    const result = await verify({
      secret,
      token,
      epoch: Math.floor(now / 1000),
      epochTolerance: TOLERANCE_SECONDS,
      ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
    });
    return result.valid && "timeStep" in result ? result.timeStep : undefined;
  } catch {
    return undefined;
  }
}

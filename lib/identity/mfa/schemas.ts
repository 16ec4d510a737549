import { z } from "zod";

/** A code from the authenticator app (6 digits, spaces allowed) or a recovery code (xxxxx-xxxxx). */
const secondFactorCodeSchema = z
  .string("Enter the 6-digit code from your app or a recovery code")
  .trim()
  .min(1, "Enter the 6-digit code from your app or a recovery code")
  .max(32, "This is not a code: enter the 6 digits from your app or a recovery code");

/** Only the app's code (enrolment, regenerating recovery codes). */
const totpCodeSchema = z
  .string("Enter the 6-digit code from your app")
  .trim()
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(
    z
      .string()
      .min(1, "Enter the 6-digit code from your app")
      .regex(/^\d{6}$/, "The code is 6 digits"),
  );

/**
 * The current password: enrolment and turning two-factor off change how the person signs in, so
 * they prove it is them, not someone at an open session.
 */
const currentPasswordSchema = z.string("Current password is required").min(1, "Current password is required").max(128, "Password is too long");

export const startEnrolmentSchema = z.object({ password: currentPasswordSchema });

export const confirmEnrolmentSchema = z.object({ password: currentPasswordSchema, code: totpCodeSchema });

export const regenerateRecoveryCodesSchema = z.object({ code: totpCodeSchema });

/** Turning two-factor sign-in off: the current password and a current code (or a recovery code). */
export const disableMfaSchema = z.object({ password: currentPasswordSchema, code: secondFactorCodeSchema });

/** The sign-in's second step: the sealed token step one answered with, and the code. */
export const secondFactorSignInSchema = z.object({
  challenge: z.string("Sign in again: this step has expired").min(1, "Sign in again: this step has expired").max(2000, "Sign in again: this step is not valid"),
  code: secondFactorCodeSchema,
});

/** Settings (owners): "Require two-factor authentication for owners". */
export const requireOwnerMfaSchema = z.object({ requireOwnerMfa: z.boolean("Choose on or off") });

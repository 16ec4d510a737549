import { z } from "zod";

/** A code from the authenticator app (6 digits, spaces allowed) or a recovery code (xxxxx-xxxxx). */
export const secondFactorCodeSchema = z
  .string("Enter the 6-digit code from your app or a recovery code")
  .trim()
  .min(1, "Enter the 6-digit code from your app or a recovery code")
  .max(32, "This is not a code: enter the 6 digits from your app or a recovery code");

/** Only the app's code (enrolment, regenerating recovery codes). */
export const totpCodeSchema = z
  .string("Enter the 6-digit code from your app")
  .trim()
  .transform((v) => v.replace(/\s+/g, ""))
  .pipe(z.string().min(1, "Enter the 6-digit code from your app").regex(/^\d{6}$/, "The code is 6 digits"));

export const startEnrolmentSchema = z.object({});

export const confirmEnrolmentSchema = z.object({ code: totpCodeSchema });
export type ConfirmEnrolmentInput = z.infer<typeof confirmEnrolmentSchema>;

export const regenerateRecoveryCodesSchema = z.object({ code: totpCodeSchema });

/** Turning two-factor sign-in off: a current code (or a recovery code), or the password. */
export const disableMfaSchema = z
  .object({
    code: z.string().trim().max(32, "This is not a code: enter the 6 digits from your app or a recovery code").optional(),
    password: z.string().max(128, "Password is too long").optional(),
  })
  .refine((v) => Boolean(v.code) || Boolean(v.password), { message: "Enter a code from your app or your password", path: ["code"] });
export type DisableMfaInput = z.infer<typeof disableMfaSchema>;

/** The sign-in's second step: the sealed token step one answered with, and the code. */
export const secondFactorSignInSchema = z.object({
  challenge: z.string("Sign in again: this step has expired").min(1, "Sign in again: this step has expired").max(2000, "Sign in again: this step is not valid"),
  code: secondFactorCodeSchema,
});
export type SecondFactorSignInInput = z.infer<typeof secondFactorSignInSchema>;

/** Settings (owners): "Require two-factor authentication for owners". */
export const requireOwnerMfaSchema = z.object({ requireOwnerMfa: z.boolean("Choose on or off") });

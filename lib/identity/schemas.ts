import { z } from "zod";

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "E-mail is required")
  .max(254, "E-mail is too long")
  .pipe(z.email("Enter a valid e-mail address, like name@example.com"));

const COMMON_PASSWORDS = new Set(["password123", "password1234", "1234567890", "qwertyuiop", "iloveyou123", "letmein1234", "welcome1234", "admin12345"]);

/**
 * bcrypt reads the first 72 bytes of a password and ignores the rest, so a longer password would
 * seem stronger than it is (and two that share 72 bytes would both open the account). New passwords
 * are capped there, counted as UTF-8 bytes: 72 plain letters, fewer with accents or emoji.
 */
const PASSWORD_MAX_BYTES = 72;
const utf8 = new TextEncoder();

const newPasswordSchema = z
  .string()
  .min(10, "Password must be at least 10 characters")
  // Every UTF-16 unit is at least one byte, so the length check spares encoding a long string.
  .refine(
    (p) => p.length <= PASSWORD_MAX_BYTES && utf8.encode(p).length <= PASSWORD_MAX_BYTES,
    "Password must be at most 72 bytes (72 letters or digits; accented letters and emoji count as 2 to 4)",
  )
  .refine((p) => /[A-Za-z]/.test(p) && /[0-9]/.test(p), "Password must contain letters and digits")
  .refine((p) => !COMMON_PASSWORDS.has(p.toLowerCase()), "This password is too common");

const commerceAccountSchema = z
  .string()
  .trim()
  .min(3, "Commerce account must be at least 3 characters")
  .max(64, "Commerce account must be at most 64 characters")
  .regex(/^[a-z0-9][a-z0-9_-]*$/, "Commerce account takes lowercase letters, digits, '-' and '_', starting with a letter or digit");

const merchantNameSchema = z.string().trim().min(1, "Business name is required").max(100, "Business name is too long");

export const personNameSchema = z.string().trim().min(1, "Name is required").max(100, "Name is too long");

/** Sign-up: creates a merchant and its owner. */
export const signUpSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  merchantName: merchantNameSchema,
  commerceAccount: commerceAccountSchema,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Password is required").max(128, "Password is too long"),
});

/** A new password typed twice: the second must match, reported on the confirmation field. */
const newPasswordPair = { password: newPasswordSchema, confirmPassword: z.string().max(128, "Password is too long") };
const matches: [(v: { password: string; confirmPassword: string }) => boolean, { message: string; path: string[] }] = [
  (v) => v.password === v.confirmPassword,
  { message: "The passwords do not match", path: ["confirmPassword"] },
];

/** Settings → You: the current password proves it is the person, not someone at an open session. */
export const changePasswordSchema = z
  .object({ currentPassword: z.string().min(1, "Current password is required").max(128, "Password is too long"), ...newPasswordPair })
  .refine(...matches);

export const forgotPasswordSchema = z.object({ email: emailSchema });

const linkTokenSchema = z.string().min(1, "This link is incomplete").max(100, "This link is not valid");

/** Setting a password through an e-mailed link: a password reset or an invitation. */
export const setPasswordSchema = z.object({ token: linkTokenSchema, ...newPasswordPair }).refine(...matches);

/** Accepting an invitation: the name the member goes by (the inviter's spelling until changed) and their password. */
export const acceptInviteSchema = z.object({ token: linkTokenSchema, name: personNameSchema.optional(), ...newPasswordPair }).refine(...matches);

export const businessNameSchema = z.object({ merchantName: merchantNameSchema });

/**
 * Finishing a sign-up from its e-mailed link: the password chosen at sign-up, typed again, or none
 * in the browser that signed up (the action decides which from its cookie, never from this input).
 */
export const confirmSignUpSchema = z.object({
  token: z.string().min(1, "This link is incomplete").max(2000, "This link is not valid"),
  password: z.string().max(128, "Password is too long").optional(),
});

import { z } from "zod";

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "E-mail is required")
  .max(254, "E-mail is too long")
  .pipe(z.email("Enter a valid e-mail address, like name@example.com"));

const COMMON_PASSWORDS = new Set([
  "password123",
  "password1234",
  "1234567890",
  "qwertyuiop",
  "iloveyou123",
  "letmein1234",
  "welcome1234",
  "admin12345",
]);

export const newPasswordSchema = z
  .string()
  .min(10, "Password must be at least 10 characters")
  .max(128, "Password must be at most 128 characters")
  .refine((p) => /[A-Za-z]/.test(p) && /[0-9]/.test(p), "Password must contain letters and digits")
  .refine((p) => !COMMON_PASSWORDS.has(p.toLowerCase()), "This password is too common");

export const commerceAccountSchema = z
  .string()
  .trim()
  .min(3, "Commerce account must be at least 3 characters")
  .max(64, "Commerce account must be at most 64 characters")
  .regex(
    /^[a-z0-9][a-z0-9_-]*$/,
    "Commerce account takes lowercase letters, digits, '-' and '_', starting with a letter or digit",
  );

export const personNameSchema = z.string().trim().min(1, "Name is required").max(100, "Name is too long");

/** Sign-up: creates a merchant and its owner. */
export const signUpSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  merchantName: z.string().trim().min(1, "Business name is required").max(100, "Business name is too long"),
  commerceAccount: commerceAccountSchema,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Password is required").max(128, "Password is too long"),
});
export type SignInInput = z.infer<typeof signInSchema>;

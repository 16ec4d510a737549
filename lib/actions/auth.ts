"use server";

import { AuthError } from "next-auth";
import { signIn, signOut } from "@/lib/auth";
import { DEFAULT_AFTER_SIGN_IN, safeNextPath } from "@/lib/auth/next-path";
import { signInSchema, signUpSchema } from "@/lib/identity/schemas";
import { getDb } from "@/lib/db/client";
import { problemsFromZod } from "@/lib/problems";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import type { ActionOutcome, ActionResult } from "./result";
import { runAction, unsafeInputResult } from "./validated-action";

async function signInOrExplain(email: string, password: string, next: unknown): Promise<ActionOutcome> {
  try {
    await signIn("credentials", { email, password, redirectTo: safeNextPath(next) });
    return { ok: true, data: undefined };
  } catch (error) {
    if (error instanceof AuthError) {
      const tooMany = (error as AuthError & { code?: string }).code === "too_many_attempts";
      return {
        ok: false,
        problems: [],
        message: tooMany
          ? "Too many sign-in attempts. Wait 15 minutes and try again."
          : "Wrong e-mail or password.",
      };
    }
    throw error;
  }
}

export async function signUpAction(input: unknown): Promise<ActionResult> {
  return runAction("sign-up", async () => {
    const unsafe = unsafeInputResult(input);
    if (unsafe) return unsafe;
    const parsed = signUpSchema.safeParse(input);
    if (!parsed.success) return { ok: false, problems: problemsFromZod(parsed.error.issues) };
    const created = await createMerchantWithOwner(await getDb(), parsed.data);
    if (!created.ok) return created;
    return signInOrExplain(parsed.data.email, parsed.data.password, DEFAULT_AFTER_SIGN_IN);
  });
}

export async function signInAction(input: unknown, next?: string): Promise<ActionResult> {
  return runAction("sign-in", async () => {
    const unsafe = unsafeInputResult(input);
    if (unsafe) return unsafe;
    const parsed = signInSchema.safeParse(input);
    if (!parsed.success) return { ok: false, problems: problemsFromZod(parsed.error.issues) };
    return signInOrExplain(parsed.data.email, parsed.data.password, next);
  });
}

/** Ends the session in this browser and on the server (next-auth's signOut event raises the session version). */
export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/sign-in" });
}

import { AuthError } from "next-auth";
import { signIn } from "./index";
import { issueSessionGrant } from "./session-grant";

/**
 * Signs this browser in as `userId` and sends it to `redirectTo` (next-auth redirects by throwing,
 * so a server action normally ends there). Only for a server action that has just proved who the
 * person is (lib/auth/session-grant.ts). False when next-auth refused (the person was removed
 * meanwhile): the caller then sends them to sign in.
 */
export async function signInWithGrant(userId: string, redirectTo: string): Promise<boolean> {
  try {
    await signIn("session-grant", { grant: issueSessionGrant(userId), redirectTo });
    return true;
  } catch (error) {
    if (error instanceof AuthError) return false;
    throw error;
  }
}

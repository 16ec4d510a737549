import { AuthError } from "next-auth";
import { signIn } from "./index";

/**
 * Gives this browser a new session after its person's sessions were ended on purpose (password
 * change): a fresh sign-in with the password just set. Only refused when sign-ins to the account
 * are being limited (too many failures); the person then simply signs in again.
 */
export async function reissueSession(email: string, password: string): Promise<boolean> {
  try {
    await signIn("credentials", { email, password, redirect: false });
    return true;
  } catch (error) {
    if (error instanceof AuthError) return false;
    throw error;
  }
}

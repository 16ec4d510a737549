import { AuthError } from "next-auth";
import { getDb } from "@/lib/db/client";
import { currentSessionVersion } from "@/lib/identity/sessions";
import { signIn } from "./index";
import { sealChallenge } from "./second-factor";

/**
 * Gives this browser a new session after its person's sessions were ended on purpose (password
 * change, just checked against the current password in a signed-in session). It goes through
 * next-auth's sign-in with a `reissue` challenge that never leaves the server
 * (lib/auth/second-factor.ts), so someone with two-factor sign-in is not asked for a code again.
 */
export async function reissueSession(userId: string): Promise<boolean> {
  const sessionVersion = await currentSessionVersion(await getDb(), userId);
  if (sessionVersion === undefined) return false;
  try {
    await signIn("credentials", { challenge: sealChallenge({ userId, sessionVersion, purpose: "reissue" }), redirect: false });
    return true;
  } catch (error) {
    if (error instanceof AuthError) return false;
    throw error;
  }
}

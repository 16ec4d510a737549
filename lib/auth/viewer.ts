import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/db/client";
import { allows, refusalFor, type Permission } from "@/lib/identity/permissions";
import { ForbiddenError } from "@/lib/errors";
import { findViewer, mustEnrolMfa, type Viewer } from "@/lib/identity/membership";
import { auth } from "./index";

/**
 * The session of this request as it stands now. `auth()` reads the cookie header the request came
 * with; after a server action issued a new session (password change: the old one was just ended)
 * the page rendered with the action's answer must read the new cookie, which only the cookie store
 * holds. So the session is read from the cookie store's current values.
 */
async function currentSession() {
  let requestHeaders: Headers;
  try {
    requestHeaders = new Headers(await headers());
    const jar = await cookies();
    requestHeaders.set(
      "cookie",
      jar
        .getAll()
        .map((c) => `${c.name}=${c.value}`)
        .join("; "),
    );
  } catch {
    // Outside a request (tests that stand in for auth()): what auth() itself reads.
    return auth();
  }
  // next-auth's `{ req, res }` form reads the session from the given headers (the answer's own Set-Cookie is not needed here).
  return auth({ req: { headers: requestHeaders }, res: { headers: new Headers() } } as never);
}

/** The signed-in person, read from the database on every request (once per render). */
export const getViewer = cache(async (): Promise<Viewer | undefined> => {
  const session = await currentSession();
  const userId = session?.user?.id;
  if (!userId) return undefined;
  return findViewer(await getDb(), userId);
});

/** Where an owner who must set up two-factor authentication is sent (lib/identity/membership.ts `mustEnrolMfa`). */
export const MFA_ENROLMENT_PATH = "/settings/two-factor";

export const MFA_ENROLMENT_REQUIRED = "Your business requires two-factor authentication for owners. Set it up first (Settings → Two-factor authentication).";

/** `allowWithoutMfa`: the enrolment page itself (and the layout around it) open for an owner who must still enrol. */
type ViewerOptions = { allowWithoutMfa?: boolean };

/**
 * Pages: redirect to sign-in without a session, show 403 when the role may not see the page, and
 * send an owner who must set up two-factor authentication to its page first.
 */
export async function requirePageViewer(permission?: Permission, options: ViewerOptions = {}): Promise<Viewer> {
  const viewer = await getViewer();
  if (!viewer) redirect("/sign-in");
  if (!options.allowWithoutMfa && mustEnrolMfa(viewer)) redirect(MFA_ENROLMENT_PATH);
  if (permission && !allows(viewer.user.role, permission)) redirect("/forbidden");
  return viewer;
}

/** Server actions: throw instead of redirecting, so the action's caller sees a refusal. */
export async function requireActionViewer(permission?: Permission, options: ViewerOptions = {}): Promise<Viewer> {
  const viewer = await getViewer();
  if (!viewer) throw new ForbiddenError("Your session has ended. Sign in again.");
  if (!options.allowWithoutMfa && mustEnrolMfa(viewer)) throw new ForbiddenError(MFA_ENROLMENT_REQUIRED);
  if (permission && !allows(viewer.user.role, permission)) throw new ForbiddenError(refusalFor(viewer.user.role, permission));
  return viewer;
}

import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/db/client";
import type { Role } from "@/lib/db/schema";
import { ForbiddenError } from "@/lib/errors";
import { findViewer, type Viewer } from "@/lib/identity/membership";
import { auth } from "./index";

/** The signed-in person, read from the database on every request (once per render). */
export const getViewer = cache(async (): Promise<Viewer | undefined> => {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) return undefined;
  return findViewer(await getDb(), userId);
});

/** Pages: redirect to sign-in without a session, show 403 when the role may not see the page. */
export async function requirePageViewer(role?: Role): Promise<Viewer> {
  const viewer = await getViewer();
  if (!viewer) redirect("/sign-in");
  if (role && viewer.user.role !== role) redirect("/forbidden");
  return viewer;
}

/** Server actions: throw instead of redirecting, so the action's caller sees a refusal. */
export async function requireActionViewer(role?: Role): Promise<Viewer> {
  const viewer = await getViewer();
  if (!viewer) throw new ForbiddenError("Your session has ended. Sign in again.");
  if (role && viewer.user.role !== role) throw new ForbiddenError("Only an owner may do this.");
  return viewer;
}

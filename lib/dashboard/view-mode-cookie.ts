import { cookies } from "next/headers";
import { publicBaseUrl } from "@/lib/config";
import type { Mode } from "@/lib/providers";
import { parseViewMode, VIEW_MODE_COOKIE } from "./view-mode";

/** The signed-in person's Test/Live view, read in server components and route handlers. */
export async function getViewMode(): Promise<Mode> {
  return parseViewMode((await cookies()).get(VIEW_MODE_COOKIE)?.value);
}

/** Remembers the view for a year. Only the server reads it; Secure whenever the app is served over HTTPS. */
export async function setViewModeCookie(mode: Mode): Promise<void> {
  (await cookies()).set(VIEW_MODE_COOKIE, mode, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: publicBaseUrl().startsWith("https:"),
    maxAge: 60 * 60 * 24 * 365,
  });
}

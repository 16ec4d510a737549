import "server-only";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { cookies } from "next/headers";
import { publicBaseUrl } from "@/lib/config";
import { SIGN_UP_LINK_TTL_MS } from "./signup-link";

/**
 * The browser that filled in the sign-up form, so that opening the mailed link there finishes the
 * sign-up without typing the password again. Sign-up keeps a random 256-bit value in an HttpOnly
 * cookie (path /sign-up, 24 hours like the link) and seals only its SHA-256 into the link
 * (lib/auth/signup-link.ts). Confirming without the password needs both: the link alone (a
 * forwarded mail, a mail scanner, another device) has no cookie and is asked for the password;
 * the cookie alone has no link. The cookie is set on every sign-up answer, whether or not the
 * address has an account, so the answer's headers tell an outsider nothing either.
 */
export const SIGN_UP_BROWSER_COOKIE = "signup_browser";

const digest = (value: string) => createHash("sha256").update(`sign-up browser\0${value}`, "utf8").digest("base64url");
const wellFormed = (value: string | undefined): value is string => typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);

/** Marks this browser (keeping its value if it already has one, so every link it asked for works) and returns what the link seals. */
export async function bindSignUpBrowser(): Promise<string> {
  const jar = await cookies();
  const held = jar.get(SIGN_UP_BROWSER_COOKIE)?.value;
  const value = wellFormed(held) ? held : randomBytes(32).toString("base64url");
  jar.set(SIGN_UP_BROWSER_COOKIE, value, {
    path: "/sign-up",
    httpOnly: true,
    sameSite: "lax",
    secure: publicBaseUrl().startsWith("https:"),
    maxAge: Math.floor(SIGN_UP_LINK_TTL_MS / 1000),
  });
  return digest(value);
}

/** Whether this request comes from the browser a link's sign-up was made in. */
export async function isSignUpBrowser(sealed: string | undefined): Promise<boolean> {
  if (!sealed) return false;
  const held = (await cookies()).get(SIGN_UP_BROWSER_COOKIE)?.value;
  if (!wellFormed(held)) return false;
  const mine = Buffer.from(digest(held));
  const theirs = Buffer.from(sealed);
  return mine.length === theirs.length && timingSafeEqual(mine, theirs);
}

/** Once the account exists the mark has done its work. */
export async function forgetSignUpBrowser(): Promise<void> {
  (await cookies()).delete({ name: SIGN_UP_BROWSER_COOKIE, path: "/sign-up" });
}

import { NextResponse, type NextRequest } from "next/server";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
const PUBLIC_PATHS = ["/sign-in", "/sign-up", "/forgot-password", "/outbox"];
/**
 * Customers on the hosted payment page and the providers' sandboxes (and their 3-D Secure page) have
 * no account here; nor do people following an e-mailed reset or invitation link (the outbox page
 * decides itself whether it exists, lib/mail/config.ts).
 */
const PUBLIC_PREFIXES = ["/pay/", "/sandbox/", "/reset-password/", "/invite/"];

/**
 * Only redirects: a visitor without a session cookie goes to sign-in.
 * Every page, action and route checks the session and role itself.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  // A stale cookie is not trusted here: the sign-in page itself sends a live session onwards.
  const isPublic = PUBLIC_PATHS.includes(pathname) || PUBLIC_PREFIXES.some((prefix) => pathname.startsWith(prefix));
  if (!hasSession && !isPublic) {
    const url = new URL("/sign-in", request.url);
    if (pathname !== "/") url.searchParams.set("next", pathname);
    return NextResponse.redirect(url);
  }
  return NextResponse.next();
}

export const config = {
  // Static files of public/ (icons, robots.txt) are served to everyone, signed in or not.
  matcher: ["/((?!api/|_next/|.*\\.(?:ico|png|svg|txt|webmanifest)$).*)"],
};

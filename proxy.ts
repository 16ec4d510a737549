import { NextResponse, type NextRequest } from "next/server";
import { hasMalformedEscape } from "@/lib/http/paths";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
/** `/metrics` checks its own bearer token (METRICS_TOKEN, app/metrics/route.ts): a scraper has no session. */
const PUBLIC_PATHS = ["/sign-in", "/sign-up", "/forgot-password", "/outbox", "/metrics"];
/**
 * Customers on the hosted payment page and the providers' sandboxes (and their 3-D Secure page) have
 * no account here; nor do people following an e-mailed reset, invitation or sign-up link (the outbox
 * page decides itself whether it exists, lib/mail/config.ts).
 */
const PUBLIC_PREFIXES = ["/pay/", "/sandbox/", "/reset-password/", "/invite/", "/sign-up/"];

/** The header pages read the nonce from (the API reference's own script uses it too): keep the name. */
export const NONCE_HEADER = "x-nonce";

/**
 * The Content-Security-Policy of every page. Scripts run only with this response's nonce (Next puts
 * it on its own scripts when it finds the policy on the request) or when loaded by one that has it
 * ('strict-dynamic'). Styles: the Tailwind stylesheet is same-origin; React `style` attributes and the
 * invoice filters' <noscript> style need 'unsafe-inline' for styles (a style cannot run code). No
 * page may be framed anywhere (the dashboard and the hosted payment page take clicks and card data),
 * no injected <base> may redirect relative URLs, no plugin content loads, and a form sends only to
 * this origin (the card form posts to /pay/{id}/pay; an injected form cannot post card data away).
 * `next dev` also needs 'unsafe-eval' (React rebuilds stacks with eval there).
 */
export function contentSecurityPolicy(nonce: string, options: { dev: boolean; https: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * Redirects a visitor without a session cookie to sign-in (every page, action and route checks the
 * session and role itself) and gives every page its Content-Security-Policy with a fresh nonce.
 * server.ts refuses malformed percent-escapes before Next; this does the same under `next dev`.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (hasMalformedEscape(pathname)) {
    return new NextResponse("Bad Request: the address has a malformed percent-escape.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  // A stale cookie is not trusted here: the sign-in page itself sends a live session onwards.
  const isPublic = PUBLIC_PATHS.includes(pathname) || PUBLIC_PREFIXES.some((prefix) => pathname.startsWith(prefix));
  // A server action is a POST the page's script sends: redirecting it would give that script an HTML
  // page it cannot read. It goes on, and the action refuses it itself ("Your session has ended").
  const isServerAction = request.method === "POST" && request.headers.has("next-action");
  if (!hasSession && !isPublic && !isServerAction) {
    const url = new URL("/sign-in", request.url);
    if (pathname !== "/") url.searchParams.set("next", pathname);
    return NextResponse.redirect(url);
  }

  const nonce = newNonce();
  const policy = contentSecurityPolicy(nonce, {
    dev: process.env.NODE_ENV !== "production",
    https: (process.env.APP_URL ?? "").trim().startsWith("https://"),
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(NONCE_HEADER, nonce);
  // On the request, Next reads the nonce from it and puts it on the scripts it renders.
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  // For browsers that predate frame-ancestors: no page of the dashboard, the hosted payment page or the 3-D Secure page may be framed.
  response.headers.set("X-Frame-Options", "DENY");
  return response;
}

export const config = {
  // Static files of public/ (icons, robots.txt) are served to everyone, signed in or not.
  // /api itself is the API's too (a JSON:API 404, app/api/route.ts), not a page behind sign-in.
  matcher: ["/((?!api(?:/|$)|_next/|.*\\.(?:ico|png|svg|txt|webmanifest)$).*)"],
};

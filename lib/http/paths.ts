/**
 * How server.ts (and proxy.ts under `next dev`) tells what a request's path is before any route
 * sees it. Edge-safe: proxy.ts imports it.
 */

/**
 * A path whose percent-escapes do not decode (`/pay/%`, `/invoices/%E0%A4%A`, a lone surrogate's
 * `%ED%A0%80`): no route can be told from it, so server.ts answers it 400 before any (proxy.ts does
 * the same for pages under `next dev`; API paths there reach their routes).
 */
export function hasMalformedEscape(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/** `/api` and everything under it: the API's, answered in JSON:API, never a page. */
export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

/** The path with its dot segments resolved, as Next will route it (`/api/../sign-in` is the sign-in page). */
export function resolvedPath(pathname: string): string {
  try {
    return new URL(`http://x${pathname}`).pathname;
  } catch {
    return pathname;
  }
}
